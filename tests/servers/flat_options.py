"""Server options written flat, ``name=value`` as the fixtures take them on their command
lines (``max_parked=0``), put in the records :class:`objmcp.Server` takes."""

from __future__ import annotations

from typing import Any

import objmcp

_RECORDS: dict[str, tuple[str, type, str]] = {}
for _keyword, _record, _fields in (
    (
        "limits",
        objmcp.Limits,
        "concurrency max_threads max_calls max_frame max_depth "
        "max_string call_timeout grace max_items max_result max_values page_size lenient",
    ),
    ("waiting", objmcp.Waiting, "max_waiting max_waiting_total max_parked park_timeout state_key"),
    (
        "tasks",
        objmcp.Tasks,
        "task_after:after max_tasks task_ttl:ttl max_task_results:max_results jobs",
    ),
    ("discovery", objmcp.Discovery, "discovery:mode discovery_threshold:threshold max_surfaced"),
    ("objects", objmcp.Objects, "per max_objects object_idle:idle shared_process"),
    ("about", objmcp.About, "description website_url meta extensions declare cache"),
    ("telemetry", objmcp.Telemetry, "tracing loggers"),
):
    for _field in _fields.split():
        _flat, _, _name = _field.partition(":")
        _RECORDS[_flat] = (_keyword, _record, _name or _flat)


def as_records(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` (flat names) as :class:`objmcp.Server`'s keywords: the records' ones made
    from them, the rest (``hooks``, ``instructions``, ...) as they are."""
    grouped: dict[str, dict[str, Any]] = {}
    plain: dict[str, Any] = {}
    for name, value in options.items():
        if name in _RECORDS:
            keyword, _, field = _RECORDS[name]
            grouped.setdefault(keyword, {})[field] = value
        else:
            plain[name] = value
    made = {keyword: _record_of(keyword)(**fields) for keyword, fields in grouped.items()}
    return {**plain, **made}


def _record_of(keyword: str) -> type:
    return next(record for kw, record, _ in _RECORDS.values() if kw == keyword)
