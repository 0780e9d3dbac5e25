"""What every area shares: its session."""

from __future__ import annotations

from cya_client.transport import AsyncSession, Session


class Area:
    def __init__(self, session: Session) -> None:
        self._s = session


class AsyncArea:
    def __init__(self, session: AsyncSession) -> None:
        self._s = session


def path(game_id: str, rest: str = "") -> str:
    return f"/v1/games/{game_id}{rest}"
