"""Property tests of the fair shares of a pool (``objmcp.protocol.shares``), the rule of
``max_tasks`` and ``max_parked`` among callers: any sequence of places taken where there
is room and given back keeps one caller alone within the pool, a caller who holds none
always let in, no caller past its share growing, and the pool overdrawn by one place a
caller at most."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from objmcp.protocol.parking import Parking
from objmcp.protocol.shares import Shares

OWNERS = st.sampled_from([None, "alice", "bob", "carol"])
STEPS = st.lists(st.tuples(st.booleans(), OWNERS), max_size=60)


@given(limit=st.integers(0, 6), steps=STEPS)
def test_shares_keep_their_promises(limit: int, steps: list[tuple[bool, str | None]]) -> None:
    shares = Shares(limit)
    held: dict[str | None, int] = {}
    for taking, owner in steps:
        mine = held.get(owner, 0)
        if not taking:
            if mine:
                shares.give(owner)
                held[owner] = mine - 1
            continue
        holders = len([who for who, count in held.items() if count]) + (mine == 0)
        share = max(1, limit // holders)
        room = shares.room(owner)
        if limit == 0:
            assert not room
        elif mine == 0:
            assert room, "a caller who holds none is always let in"
        else:
            assert room == (mine < share and sum(held.values()) < limit)
        if room:
            shares.take(owner)
            held[owner] = mine + 1
        callers = len([count for count in held.values() if count])
        assert len(shares) == sum(held.values())
        assert len(shares) <= max(limit, limit + callers - 1)
        if callers == 1:
            assert len(shares) <= limit, "one caller alone: a plain bound"
        assert shares.held_by(owner) == held.get(owner, 0)


def test_parks_and_held_task_calls_share_max_parked() -> None:
    parking = Parking(2)
    name = parking.open(1, 1, "alice")
    assert parking.hold(2, "alice")  # a task's call waiting for tasks/update
    assert not parking.room("alice") and not parking.hold(4, "alice")
    assert parking.room("bob") and parking.hold(3, "bob")  # bob holds none: let in
    assert parking.hold(3, "bob") and len(parking) == 3  # one place, however many waits
    parking.release(3)
    assert len(parking) == 3
    parking.release(3)
    assert len(parking) == 2 and parking.claim(name, 1) == 1 and len(parking) == 1
    parking.release(2)
    assert len(parking) == 0 and parking.room("alice")
