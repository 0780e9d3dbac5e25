"""The session's retries and the streams' resumption, against scripted answers (httpx's
MockTransport): what a real server does only when something breaks."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import httpx
import pytest
from cya_client import Client, RateLimited, RetryPolicy, RuleViolation
from cya_client.models import Discard, NewsYourTurn
from cya_client.streams import SseParser

FAST = RetryPolicy(attempts=4, backoff=0.001, max_backoff=0.002)
PROBLEM = {"status": 503, "code": "database_unavailable", "title": "Database unavailable",
           "type": "https://cya.example/problems/database-unavailable", "detail": "later"}


def _client(handler: Callable[[httpx.Request], httpx.Response]) -> Client:
    return Client("http://cya.test", "key", retry=FAST, transport=httpx.MockTransport(handler))


def _result(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"game_id": "g", "version": 5, "events": [],
                                     "committed": True, "partial": False, "replayed": False,
                                     "receipt": None, "turn": None})


def _scripted(*steps: Callable[[httpx.Request], httpx.Response]
              ) -> tuple[list[httpx.Request], Callable[[httpx.Request], httpx.Response]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return steps[min(len(seen), len(steps)) - 1](request)
    return seen, handler


def _refuse(status: int, retry_after: str | None = "0") -> Callable[[httpx.Request],
                                                                     httpx.Response]:
    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"Retry-After": retry_after} if retry_after else {}
        code = "rate_limited" if status == 429 else PROBLEM["code"]
        return httpx.Response(status, json={**PROBLEM, "status": status, "code": code},
                              headers=headers)
    return answer


def _fail(error: type[httpx.TransportError]) -> Callable[[httpx.Request], httpx.Response]:
    def answer(request: httpx.Request) -> httpx.Response:
        raise error("scripted", request=request)
    return answer


@pytest.mark.parametrize("first", [_refuse(429), _refuse(503), _refuse(503, None),
                                   _fail(httpx.ReadError), _fail(httpx.ConnectError)])
def test_given_a_passing_failure_then_a_command_is_resent_with_the_same_key(first):
    seen, handler = _scripted(first, _result)

    result = _client(handler).play.send("g", Discard(card="jewels#1"))

    assert result.version == 5 and len(seen) == 2
    keys = {r.headers["idempotency-key"] for r in seen}
    assert len(keys) == 1 and len(keys.pop()) >= 16
    assert json.loads(seen[1].content) == {"type": "discard", "card": "jewels#1"}


def test_given_a_post_without_a_key_that_may_have_arrived_then_it_is_not_resent():
    seen, handler = _scripted(_fail(httpx.ReadError))

    with pytest.raises(httpx.ReadError):
        _client(handler).players.create("ann")

    assert len(seen) == 1


def test_given_a_post_without_a_key_that_never_left_then_it_is_resent():
    seen, handler = _scripted(_fail(httpx.ConnectError), lambda r: httpx.Response(
        201, json={"player_id": "p", "name": "ann", "api_key": "k", "bot": False,
                    "arena": False}))

    assert _client(handler).players.create("ann").api_key == "k" and len(seen) == 2


def test_given_the_limit_still_refused_after_every_attempt_then_the_problem_is_raised():
    seen, handler = _scripted(_refuse(429, "0"))

    with pytest.raises(RateLimited) as raised:
        _client(handler).play.turn("g", timeout=0)

    assert len(seen) == FAST.attempts
    assert raised.value.retry_after == 0


def test_given_a_rule_violation_then_its_legal_commands_are_commands_ready_to_send():
    problem = {"status": 422, "code": "rule_violation", "title": "Rule violation",
               "type": "https://cya.example/problems/rule-violation", "detail": "no",
               "rule": "not_in_hand", "legal_commands": [{"type": "discard", "card": "x#1"}]}
    _, handler = _scripted(lambda r: httpx.Response(422, json=problem))

    with pytest.raises(RuleViolation) as raised:
        _client(handler).play.send("g", Discard(card="y#1"))

    assert raised.value.rule == "not_in_hand" and raised.value.status == 422
    assert raised.value.legal_commands == [Discard(card="x#1")]


class _Dropping(httpx.SyncByteStream):
    """Sends its chunks, then the connection breaks."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        raise httpx.ReadError("connection reset")


def _sse(version: int, kind: str = "card_discarded") -> bytes:
    event = {"type": kind, "seat": 0, "card": "jewels#1"} if kind == "card_discarded" else {
        "type": kind, "winners": [0], "totals": [1, 2]}
    data = json.dumps({"version": version, "event": event, "awaiting": [1], "deadline": None})
    return f"id: {version}\nevent: message\ndata: {data}\n\n: heartbeat\n\n".encode()


def test_given_a_dropped_event_stream_then_it_resumes_after_the_last_event_id():
    def first(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=_Dropping([_sse(1), _sse(2)]),
                              headers={"content-type": "text/event-stream"})

    def second(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=_sse(3) + _sse(4, "game_ended"),
                              headers={"content-type": "text/event-stream"})
    seen, handler = _scripted(first, second)

    events = list(_client(handler).follow.stream("g"))

    assert [e.version for e in events] == [1, 2, 3, 4]
    assert [r.headers["last-event-id"] for r in seen] == ["0", "2"]
    assert events[0].awaiting == [1] and events[-1].event.winners == [0]


def test_given_a_dropped_news_stream_then_it_resumes_after_the_last_news_id():
    turn = {"game_id": "g", "version": 7, "status": "playing", "seat": 0, "awaiting": [0],
            "deadline": None, "view": None, "legal_commands": [{"type": "concede"}]}

    def news(n: int) -> bytes:
        return json.dumps({"type": "your_turn", "id": f"{n}.g.7", "game_id": "g",
                           "version": 7, "seat": 0, "turn": turn}).encode() + b"\n\n"

    seen, handler = _scripted(
        lambda r: httpx.Response(200, stream=_Dropping([news(1), b"\n"])),
        lambda r: httpx.Response(200, content=news(2)))
    stream = _client(handler).players.news()

    got = [next(stream), next(stream)]

    assert [n.id for n in got] == ["1.g.7", "2.g.7"] and isinstance(got[0], NewsYourTurn)
    assert "after" not in seen[0].url.params and seen[1].url.params["after"] == "1.g.7"


def test_given_server_sent_event_lines_then_the_parser_joins_data_and_skips_comments():
    parser = SseParser()
    lines = [": heartbeat", "", "id: 4", "event: seated", "data: {\"a\":", "data: 1}", "",
             "retry: 5", ""]

    messages = [m for m in map(parser.feed, lines) if m]

    assert [(m.id, m.event, m.data) for m in messages] == [("4", "seated", '{"a":\n1}')]
