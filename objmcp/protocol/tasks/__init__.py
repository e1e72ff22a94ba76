"""Tasks: calls that outlive their request, in every form the protocol has them.

``extension`` and ``extension_methods`` (2026-07-28's tasks extension), ``core``
(2025-11-25's experimental core tasks), ``jobs`` and ``job_methods`` (the tasks of a
client that has none, as tools) and ``kept`` (what ended tasks keep, bounded).
"""
