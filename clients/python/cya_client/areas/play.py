"""Play a seat: the turn (view and legal commands in one read, waiting until the decision is
yours), commands, and the view and legal commands on their own."""

from __future__ import annotations

from typing import Literal

from cya_client.areas.base import Area, AsyncArea, path
from cya_client.models import (
    Command,
    CommandResult,
    LegalCommands,
    ReactionBody,
    Turn,
    ViewOut,
)
from cya_client.transport import Call, decoder

Reaction = Literal["good_game", "well_played", "nice_steal", "oops"]
TURN_WAIT = 25.0  # the server caps a wait at its long-poll maximum (30 s by default)


def turn(game_id: str, timeout: float) -> Call[Turn]:
    return Call("GET", path(game_id, "/turn"), Turn, params={"timeout": timeout},
                waits=timeout)


def send(game_id: str, command: Command, if_match: int | str | None,
         dry_run: bool) -> Call[CommandResult]:
    headers = {} if if_match is None else {
        "If-Match": if_match if if_match == "*" else f'"{if_match}"'}
    return Call("POST", path(game_id, "/commands"), CommandResult, body=command,
                headers=headers, params={"dry_run": True if dry_run else None},
                idempotent=True)


def view(game_id: str, wait_for_version: int | None, timeout: float | None,
         if_none_match: int | None = None) -> Call[ViewOut]:
    headers = {} if if_none_match is None else {"If-None-Match": f'"{if_none_match}"'}
    return Call("GET", path(game_id, "/view"), ViewOut, headers=headers,
                params={"wait_for_version": wait_for_version, "timeout": timeout},
                waits=timeout or 0.0)


def react(game_id: str, reaction: Reaction) -> Call[CommandResult]:
    return Call("POST", path(game_id, "/reactions"), CommandResult,
                body=ReactionBody(reaction=reaction), idempotent=True)


def legal(game_id: str) -> Call[LegalCommands]:
    return Call("GET", path(game_id, "/legal-commands"), LegalCommands)


def _changed(call: Call[ViewOut]) -> Call[bytes]:
    return Call(call.method, call.path, bytes, params=call.params, headers=call.headers,
                ok=frozenset({200, 304}))


def _view(raw: bytes) -> ViewOut:
    found: ViewOut = decoder(ViewOut).decode(raw)
    return found


class Play(Area):
    def turn(self, game_id: str, timeout: float = TURN_WAIT) -> Turn:
        """Your view, status, whose decision it is, its deadline and your legal commands, at
        one version. Waits up to `timeout` seconds until the decision is yours or the game
        ends. Waiting does not count against the rate limit."""
        return self._s.run(turn(game_id, timeout))

    def send(self, game_id: str, command: Command, *, idempotency_key: str | None = None,
             if_match: int | str | None = None, dry_run: bool = False) -> CommandResult:
        """Post one command (as `legal_commands` lists it). An `Idempotency-Key` is made for
        you, so a retried command happens once."""
        return self._s.run(send(game_id, command, if_match, dry_run), idempotency_key)

    def view(self, game_id: str, *, wait_for_version: int | None = None,
             timeout: float | None = None) -> ViewOut:
        """Your view; with `wait_for_version`, waits (up to `timeout` s) for that version."""
        return self._s.run(view(game_id, wait_for_version, timeout))

    def view_if_changed(self, game_id: str, version: int) -> ViewOut | None:
        """Your view, or None while the game is still at `version` (`If-None-Match`)."""
        raw = self._s.run(_changed(view(game_id, None, None, version)))
        return _view(raw) if raw else None

    def legal_commands(self, game_id: str) -> LegalCommands:
        return self._s.run(legal(game_id))

    def react(self, game_id: str, reaction: Reaction, *, idempotency_key: str | None = None
              ) -> CommandResult:
        """A preset reaction to the table: `good_game`, `well_played`, `nice_steal` or
        `oops`; one per seat every few seconds (429 `too_many_reactions` sooner)."""
        return self._s.run(react(game_id, reaction), idempotency_key)


class AsyncPlay(AsyncArea):
    async def turn(self, game_id: str, timeout: float = TURN_WAIT) -> Turn:
        return await self._s.run(turn(game_id, timeout))

    async def send(self, game_id: str, command: Command, *, idempotency_key: str | None = None,
                   if_match: int | str | None = None, dry_run: bool = False) -> CommandResult:
        return await self._s.run(send(game_id, command, if_match, dry_run), idempotency_key)

    async def view(self, game_id: str, *, wait_for_version: int | None = None,
                   timeout: float | None = None) -> ViewOut:
        return await self._s.run(view(game_id, wait_for_version, timeout))

    async def view_if_changed(self, game_id: str, version: int) -> ViewOut | None:
        raw = await self._s.run(_changed(view(game_id, None, None, version)))
        return _view(raw) if raw else None

    async def legal_commands(self, game_id: str) -> LegalCommands:
        return await self._s.run(legal(game_id))

    async def react(self, game_id: str, reaction: Reaction, *, idempotency_key: str | None = None
                    ) -> CommandResult:
        return await self._s.run(react(game_id, reaction), idempotency_key)
