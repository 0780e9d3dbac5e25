"""One real server for the module's games (SQLite, receipts on), and the games played on it,
saved as an auditor keeps them (`games.play_and_save`)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from cya_rules.ruleset import CURRENT_RULES_VERSION
from tests.http.conftest import Live, serve_sqlite, stop

from .games import Saved, play_and_save

EDITIONS = ("classic_2011", "en_2022", "de_2024")
RULES_VERSIONS = tuple(range(1, CURRENT_RULES_VERSION + 1))


@pytest.fixture(scope="session")
def verify_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    live = serve_sqlite(tmp_path_factory, "verify", scheduler="in_process")  # bots move
    yield live
    stop(live)


@pytest.fixture(scope="session")
def four_player_game(verify_live: Live, tmp_path_factory: pytest.TempPathFactory) -> Saved:
    """A finished 4-player game of the current rules: three players' seeds, a bot's, none."""
    with httpx.Client(base_url=verify_live.url, timeout=30) as http:
        return play_and_save(http, tmp_path_factory.mktemp("four"), players=4,
                             edition="en_2022", rules_version=CURRENT_RULES_VERSION, bot=True)


@pytest.fixture(scope="session")
def other_game(verify_live: Live, tmp_path_factory: pytest.TempPathFactory) -> Saved:
    with httpx.Client(base_url=verify_live.url, timeout=30) as http:
        return play_and_save(http, tmp_path_factory.mktemp("other"), players=2,
                             edition="de_2024", rules_version=CURRENT_RULES_VERSION, seed=2)


@pytest.fixture(scope="session")
def _kinds_played() -> dict[tuple[str, int], Saved]:
    return {}


def _kind(request: pytest.FixtureRequest, live: Live, tmp: pytest.TempPathFactory,
          played: dict[tuple[str, int], Saved]) -> Saved:
    edition, version = request.param
    if (edition, version) not in played:
        with httpx.Client(base_url=live.url, timeout=30) as http:
            played[edition, version] = play_and_save(
                http, tmp.mktemp(f"{edition}-v{version}"), players=2, edition=edition,
                rules_version=version, seed=version)
    return played[edition, version]


@pytest.fixture(scope="session", params=[(e, v) for e in EDITIONS for v in RULES_VERSIONS],
                ids=lambda p: f"{p[0]}-v{p[1]}")
def every_kind_of_game(request: pytest.FixtureRequest, verify_live: Live,
                       tmp_path_factory: pytest.TempPathFactory,
                       _kinds_played: dict[tuple[str, int], Saved]) -> Saved:
    """A finished 2-player game of each edition under each rules version still supported."""
    return _kind(request, verify_live, tmp_path_factory, _kinds_played)


@pytest.fixture(scope="session", params=[(e, v) for e in EDITIONS for v in RULES_VERSIONS[:-1]],
                ids=lambda p: f"{p[0]}-v{p[1]}")
def older_kind_of_game(request: pytest.FixtureRequest, verify_live: Live,
                       tmp_path_factory: pytest.TempPathFactory,
                       _kinds_played: dict[tuple[str, int], Saved]) -> Saved:
    """The same games, of the rules versions before the current one."""
    return _kind(request, verify_live, tmp_path_factory, _kinds_played)
