"""Due work that waits for its time (an expiring clock, a paced bot move), to the millisecond
and with no single owner: a Redis sorted set scored by due time, which every worker's timer
releases into the RQ queue when the time comes.

Instead of RQ's scheduler, which keeps whole seconds, polls once a second, and runs in one
worker under a lock that outlives that worker by a minute (a dead one's clocks waited for the
sweeper meanwhile). Releasing is one atomic script, so each entry goes to one timer; one
that dies after taking an entry leaves it to the sweeper.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rq import Queue

from service.table.clock import DueWork

POLL_S = 0.02  # a timer's longest sleep: how late a newly added, already due entry may go
# An expiring clock's job is released this much before the deadline: the queue and the job's
# first read are behind it when the deadline comes, which the job itself waits for.
CLOCK_LEAD_S = 0.2
_RELEASE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 64)
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return {due, redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')}
"""


def timer_key(queue_name: str) -> str:
    return f"cya:due-at:{queue_name}"


def _member(due: DueWork) -> str:
    return f"{due.game_id} {due.version} {due.kind} {due.seat}"


def add(queue: Queue, due: DueWork, at: datetime, pipe: object | None = None) -> None:
    """Release `due` to `queue` at `at`."""
    (pipe or queue.connection).zadd(  # type: ignore[attr-defined]
        timer_key(queue.name), {_member(due): at.timestamp()})


def release(queue: Queue, now: datetime | None = None) -> tuple[list[DueWork], float]:
    """Takes every entry due by `now` off the set (for the caller to enqueue); returns them
    and the seconds until the next one (`POLL_S` at most)."""
    at = (now or datetime.now(UTC)).timestamp()
    taken, following = queue.connection.eval(_RELEASE, 1, timer_key(queue.name), repr(at))
    due = []
    for raw in taken:
        game_id, version, kind, seat = raw.decode().split(" ")
        due.append(DueWork(game_id, int(version), kind, int(seat),
                           datetime.fromtimestamp(at, UTC)))
    wait = POLL_S if not following else min(max(float(following[1]) - at, 0.0), POLL_S)
    return due, wait
