"""The chosen zoo's records (``bench/chosen/libraries.py``) agree with its walk (``choice.tsv``)
and the ranking it walked (``ranking.tsv``); the split is the one ``half_of`` gives. No
library of the chosen zoo is needed: this runs in the main venv."""

from __future__ import annotations

import sys

from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st

CHOSEN = ROOT / "bench" / "chosen"
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(CHOSEN))

from libraries import (  # noqa: E402
    LIBRARIES,
    QUOTA,
    SECOND_QUOTA,
    THIRD_QUOTA,
    VERDICTS,
    half_of,
    normalized,
)
from zoo_cases import TARGETS  # noqa: E402

FIRST_ZOO = {target.library for target in TARGETS if "/" not in target.spec}


def rows(name: str) -> list[list[str]]:
    """The rows of a TSV file of ``bench/chosen/``, its ``#`` lines left out."""
    lines = (CHOSEN / name).read_text().splitlines()
    return [line.split("\t") for line in lines if not line.startswith("#")]


def test_the_walk_follows_the_ranking_and_stops_at_the_quota() -> None:
    ranking = rows("ranking.tsv")
    assert [int(rank) for rank, _ in ranking] == list(range(1, 1501))
    walk = rows("choice.tsv")
    assert [row[:2] for row in walk] == ranking[: len(walk)]
    assert {row[2] for row in walk} <= set(VERDICTS)
    assert all(row[3] for row in walk), "every verdict has a reason"
    kept = [row for row in walk if row[2] == "kept"]
    assert len(kept) == QUOTA + SECOND_QUOTA + THIRD_QUOTA and walk[-1][2] == "kept"
    first_stop = int(kept[QUOTA - 1][0])
    second_stop = int(kept[QUOTA + SECOND_QUOTA - 1][0])
    assert [library.walk for library in LIBRARIES] == [
        1 if library.rank <= first_stop else 2 if library.rank <= second_stop else 3
        for library in LIBRARIES
    ]
    for walk_number, quota in enumerate((QUOTA, SECOND_QUOTA, THIRD_QUOTA), start=1):
        kept_by_walk = [library for library in LIBRARIES if library.walk == walk_number]
        assert len(kept_by_walk) == quota
        assert {library.half for library in kept_by_walk} == {"tuning", "held-out"}
    assert len(FIRST_ZOO) == 41 and QUOTA + len(FIRST_ZOO) >= 100
    for row in walk:
        if row[2] == "in-zoo":
            assert row[4] in FIRST_ZOO, row
        if row[2] == "kept":
            assert not set(row[4].split(";")) & FIRST_ZOO, row


def test_the_records_are_the_kept_rows_in_rank_order_and_split_by_the_hash() -> None:
    kept = [row for row in rows("choice.tsv") if row[2] == "kept"]
    assert [
        (library.rank, library.distribution, library.imports, library.targets)
        for library in LIBRARIES
    ] == [
        (int(rank), name, tuple(imports.split(";")), tuple(targets.split(";")))
        for rank, name, _, _, imports, targets in kept
    ]
    assert all(library.half == half_of(library.distribution) for library in LIBRARIES)
    assert {library.half for library in LIBRARIES} == {"tuning", "held-out"}


def test_every_kept_library_is_pinned_once_in_rank_order() -> None:
    pins = [
        line.partition("==")[0]
        for line in (CHOSEN / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    count = QUOTA + SECOND_QUOTA + THIRD_QUOTA
    assert pins[:count] == [library.distribution for library in LIBRARIES]
    assert pins[count:] == ["mcp", "fastmcp"]


names = st.text(alphabet="abcXYZ019-_.", min_size=1, max_size=20)


@given(names, st.sampled_from(["-", "_", "."]))
def test_a_name_is_in_one_half_however_it_is_spelled(name: str, separator: str) -> None:
    respelled = name.upper().replace("-", separator).replace("_", separator)
    assert normalized(normalized(name)) == normalized(name)
    assert half_of(respelled) == half_of(name)
