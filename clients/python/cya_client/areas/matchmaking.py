"""Challenges and quick play (`client.challenges`, `client.matchmaking`): challenge a player or
anyone, accept, decline or cancel; seek a game and stop seeking. What comes of them arrives on
the news stream (`challenge`, `challenge_accepted`, `challenge_declined`, `matched`)."""

from __future__ import annotations

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import ChallengeOut, DeclineChallenge, NewChallenge, NewSeek, SeekOut
from cya_client.transport import Call


def _path(challenge_id: str, rest: str = "") -> str:
    return f"/v1/challenges/{challenge_id}{rest}"


def challenge(body: NewChallenge) -> Call[ChallengeOut]:
    return Call("POST", "/v1/challenges", ChallengeOut, body=body, idempotent=True)


def open_challenges(limit: int | None) -> Call[list[ChallengeOut]]:
    return Call("GET", "/v1/challenges", list[ChallengeOut],
                params={"limit": limit})


def get(challenge_id: str) -> Call[ChallengeOut]:
    return Call("GET", _path(challenge_id), ChallengeOut)


def act(challenge_id: str, action: str, body: DeclineChallenge | None = None
        ) -> Call[ChallengeOut]:
    """accept, decline or cancel: each idempotent (a retry finds it done)."""
    return Call("POST", _path(challenge_id, f"/{action}"), ChallengeOut, body=body,
                idempotent=True)


def seek(body: NewSeek) -> Call[SeekOut]:
    return Call("POST", "/v1/matchmaking", SeekOut, body=body, idempotent=True)


def get_seek(seek_id: str) -> Call[SeekOut]:
    return Call("GET", f"/v1/matchmaking/{seek_id}", SeekOut)


def cancel_seek(seek_id: str) -> Call[SeekOut]:
    return Call("DELETE", f"/v1/matchmaking/{seek_id}", SeekOut)


class Challenges(Area):
    def create(self, body: NewChallenge) -> ChallengeOut:
        return self._s.run(challenge(body))

    def list(self, limit: int | None = None) -> list[ChallengeOut]:
        return self._s.run(open_challenges(limit))

    def get(self, challenge_id: str) -> ChallengeOut:
        return self._s.run(get(challenge_id))

    def accept(self, challenge_id: str) -> ChallengeOut:
        return self._s.run(act(challenge_id, "accept"))

    def decline(self, challenge_id: str, reason: str | None = None) -> ChallengeOut:
        return self._s.run(act(challenge_id, "decline", DeclineChallenge(reason=reason)))

    def cancel(self, challenge_id: str) -> ChallengeOut:
        return self._s.run(act(challenge_id, "cancel"))


class AsyncChallenges(AsyncArea):
    async def create(self, body: NewChallenge) -> ChallengeOut:
        return await self._s.run(challenge(body))

    async def list(self, limit: int | None = None) -> list[ChallengeOut]:
        return await self._s.run(open_challenges(limit))

    async def get(self, challenge_id: str) -> ChallengeOut:
        return await self._s.run(get(challenge_id))

    async def accept(self, challenge_id: str) -> ChallengeOut:
        return await self._s.run(act(challenge_id, "accept"))

    async def decline(self, challenge_id: str, reason: str | None = None) -> ChallengeOut:
        return await self._s.run(act(challenge_id, "decline", DeclineChallenge(reason=reason)))

    async def cancel(self, challenge_id: str) -> ChallengeOut:
        return await self._s.run(act(challenge_id, "cancel"))


class Matchmaking(Area):
    def seek(self, body: NewSeek) -> SeekOut:
        return self._s.run(seek(body))

    def get(self, seek_id: str) -> SeekOut:
        return self._s.run(get_seek(seek_id))

    def cancel(self, seek_id: str) -> SeekOut:
        return self._s.run(cancel_seek(seek_id))


class AsyncMatchmaking(AsyncArea):
    async def seek(self, body: NewSeek) -> SeekOut:
        return await self._s.run(seek(body))

    async def get(self, seek_id: str) -> SeekOut:
        return await self._s.run(get_seek(seek_id))

    async def cancel(self, seek_id: str) -> SeekOut:
        return await self._s.run(cancel_seek(seek_id))
