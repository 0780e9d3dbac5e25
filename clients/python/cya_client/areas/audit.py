"""Audit a game: its whole unredacted log (NDJSON), the game at a past version, and the
server's own verification of it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import httpx
import msgspec

from cya_client.areas.base import Area, AsyncArea, path
from cya_client.models import HistoryLine, HistoryPage, Receipt, ReceiptKeys, StateOut, VerifyReport
from cya_client.receipts import history_lines
from cya_client.transport import Call, decoder


@dataclass(frozen=True)
class SignedHistory:
    """A game's history as sent (its NDJSON lines, byte for byte, as the hash chain covers
    them), with the receipt for its last version and the game's receipt salt."""

    game_id: str
    lines: list[bytes]
    receipt: Receipt | None
    receipt_salt: str


def _signed(game_id: str, response: httpx.Response) -> SignedHistory:
    receipt = response.headers.get("Cya-Receipt")
    return SignedHistory(game_id, history_lines(response.content),
                         None if receipt is None else msgspec.json.decode(receipt, type=Receipt),
                         response.headers.get("Cya-Receipt-Salt", ""))


def receipt_keys() -> Call[ReceiptKeys]:
    return Call("GET", "/v1/receipt-keys", ReceiptKeys)


def history(game_id: str) -> Call[bytes]:
    return Call("GET", path(game_id, "/history"), bytes,
                headers={"Accept": "application/x-ndjson"})


def history_page(game_id: str, after: int, limit: int) -> Call[HistoryPage]:
    return Call("GET", path(game_id, "/history/page"), HistoryPage,
                params={"after": after, "limit": limit})


def state(game_id: str, version: int) -> Call[StateOut]:
    return Call("GET", path(game_id, "/state"), StateOut, params={"version": version})


def verify(game_id: str) -> Call[VerifyReport]:
    return Call("GET", path(game_id, "/verify"), VerifyReport)


def _line(raw: str) -> HistoryLine:
    found: HistoryLine = decoder(HistoryLine).decode(raw)
    return found


class Audit(Area):
    def history(self, game_id: str) -> Iterator[HistoryLine]:
        """Every stored event, oldest first, read as it arrives (open once the game is
        finished, or to a creator who held no seat at the deal)."""
        with self._s.stream(history(game_id)) as response:
            for raw in response.iter_lines():
                if raw.strip():
                    yield _line(raw)

    def signed_history(self, game_id: str) -> SignedHistory:
        """The history as sent, with its receipt and salt (`cya_client.receipts`)."""
        with self._s.stream(history(game_id)) as response:
            response.read()
            return _signed(game_id, response)

    def receipt_keys(self) -> ReceiptKeys:
        """The public keys that verify receipts (`GET /v1/receipt-keys`)."""
        return self._s.run(receipt_keys())

    def history_page(self, game_id: str, after: int = 0, limit: int = 1000) -> HistoryPage:
        """A page of the same lines as JSON (`next_after` for the next page)."""
        return self._s.run(history_page(game_id, after, limit))

    def state(self, game_id: str, version: int) -> StateOut:
        return self._s.run(state(game_id, version))

    def verify(self, game_id: str) -> VerifyReport:
        return self._s.run(verify(game_id))


class AsyncAudit(AsyncArea):
    async def history(self, game_id: str) -> AsyncIterator[HistoryLine]:
        async with self._s.stream(history(game_id)) as response:
            async for raw in response.aiter_lines():
                if raw.strip():
                    yield _line(raw)

    async def signed_history(self, game_id: str) -> SignedHistory:
        async with self._s.stream(history(game_id)) as response:
            await response.aread()
            return _signed(game_id, response)

    async def receipt_keys(self) -> ReceiptKeys:
        return await self._s.run(receipt_keys())

    async def history_page(self, game_id: str, after: int = 0, limit: int = 1000
                           ) -> HistoryPage:
        return await self._s.run(history_page(game_id, after, limit))

    async def state(self, game_id: str, version: int) -> StateOut:
        return await self._s.run(state(game_id, version))

    async def verify(self, game_id: str) -> VerifyReport:
        return await self._s.run(verify(game_id))
