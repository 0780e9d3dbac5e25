"""What a player's news stream (`GET /v1/players/me/events`) says of its challenges and seeks,
beside the news of its games. Each is made from a challenge or seek as stored, so a stream
that starts or resumes tells them again from the rows.

An id has the shape of a game news' id (time, then the challenge's or seek's id, then a step),
so `Last-Event-ID` resumes either kind.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec

from cya_rules import RuleSet
from cya_rules.docs import doc
from service.matchmaking.challenges import Challenge, ChallengeStatus
from service.matchmaking.seeks import Seek, SeekStatus


class _MatchNews(msgspec.Struct, tag_field="type"):
    id: Annotated[str, doc(
        "Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).")]


class NewsChallenge(_MatchNews, tag="challenge"):
    """A player challenges you: accept with `POST /v1/challenges/{challenge_id}/accept`, or
    decline with a reason."""

    challenge_id: Annotated[str, doc("The challenge's id.")]
    challenger: Annotated[str, doc("The challenging player's id.")]
    ruleset: Annotated[RuleSet, doc("How the game would be played.")]
    turn_clock: Annotated[int | None, doc("Seconds a decision, or null: no clock.")]
    rated: Annotated[bool, doc("Whether the game would be rated.")]


class NewsChallengeAccepted(_MatchNews, tag="challenge_accepted"):
    """A challenge you made or accepted became a game (both sides hear it)."""

    challenge_id: Annotated[str, doc("The challenge's id.")]
    game_id: Annotated[str, doc("The game it became: already dealt.")]


class NewsChallengeDeclined(_MatchNews, tag="challenge_declined"):
    """The player you challenged declined."""

    challenge_id: Annotated[str, doc("The challenge's id.")]
    reason: Annotated[str | None, doc("Why, in the decliner's words.")]


class NewsMatched(_MatchNews, tag="matched"):
    """A seek of yours was matched: its game is dealt."""

    seek_id: Annotated[str, doc("The seek's id.")]
    game_id: Annotated[str, doc("The game it became.")]


MatchNews = NewsChallenge | NewsChallengeAccepted | NewsChallengeDeclined | NewsMatched
_STEP = {ChallengeStatus.OPEN: 0, ChallengeStatus.ACCEPTED: 1, ChallengeStatus.DECLINED: 2}


def _ident(at: datetime, key: str, step: int) -> str:
    return f"{round(at.timestamp() * 1_000_000)}.{key}.{step}"


def challenge_news(c: Challenge, player_id: str) -> MatchNews | None:
    """What `player_id` hears of challenge `c` as it stands (None: nothing)."""
    ident = _ident(c.updated_at, c.challenge_id, _STEP.get(c.status, 3))
    if c.status == ChallengeStatus.OPEN and player_id == c.challenged:
        return NewsChallenge(ident, c.challenge_id, c.challenger, c.ruleset, c.turn_clock,
                             c.rated)
    if c.status == ChallengeStatus.ACCEPTED and c.game_id is not None \
            and player_id in (c.challenger, c.accepted_by):
        return NewsChallengeAccepted(ident, c.challenge_id, c.game_id)
    if c.status == ChallengeStatus.DECLINED and player_id == c.challenger:
        return NewsChallengeDeclined(ident, c.challenge_id, c.reason)
    return None


def seek_news(s: Seek, matched_at: datetime) -> MatchNews | None:
    if s.status == SeekStatus.MATCHED and s.game_id is not None:
        return NewsMatched(_ident(matched_at, s.seek_id, 1), s.seek_id, s.game_id)
    return None
