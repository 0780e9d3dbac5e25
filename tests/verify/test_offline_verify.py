"""`cya-verify` (docs/audit.md) on real histories, played through a real server with receipts
kept: untampered, every edition under every rules version still supported verifies clean, as
the server's own `GET /verify` says too; tampered in each way a forger with the database
could, the report names what is wrong, with the chain rebuilt wherever that hides the change
from the chain, and exits 1."""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from cya_rules import GameState, evolve, legal_commands, new_game
from cya_rules.decide import execute
from cya_rules.events import Event, GameStarted
from cya_rules.log.codec import EventCodec, default_codec
from cya_rules.log.visibility import visibility_of
from cya_rules.verify.cli import main
from tests.http.conftest import Live

from . import forge
from .games import Saved


def _run(saved: Saved, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main([str(saved.history), "--receipts", str(saved.receipts), "--keys",
                 str(saved.keys), "--json"])
    return code, json.loads(capsys.readouterr().out)


def _failed(report: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["detail"] for c in report["checks"] if not c["ok"]}


def _copy(saved: Saved, tmp_path: Path) -> Saved:
    folder = tmp_path / "copy"
    shutil.copytree(saved.folder, folder)
    return replace(saved, folder=folder)


def test_given_every_edition_and_rules_version_untampered_then_it_verifies_clean(
        every_kind_of_game: Saved, verify_live: Live, capsys: pytest.CaptureFixture[str]):
    saved = every_kind_of_game

    code, report = _run(saved, capsys)

    assert code == 0, report
    assert [c["name"] for c in report["checks"]] == [
        "hash chain", "times", "seeds", "shuffles and rules", "receipts"]
    server = httpx.get(f"{verify_live.url}/v1/games/{saved.game_id}/verify").json()
    assert server["ok"] is True and server["events"] == report["events"]
    created = json.loads(saved.history.read_bytes().splitlines()[0])["data"]
    assert created["ruleset"]["rules_version"] == saved.rules_version
    assert created["ruleset"]["edition"] == saved.edition


def test_given_a_game_as_servers_before_rules_version_4_logged_it_then_it_verifies_clean(
        older_kind_of_game: Saved, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Before version 4 game_created committed to nothing and held no seed (so it was
    public), and the deal drew the master seed: the same game, logged as it was then."""
    saved = _copy(older_kind_of_game, tmp_path)
    lines = forge.read(saved.history)
    created = lines[0].event()
    for field in ("seed_sha256", "client_seeds", "master_seed", "client_seed"):
        created.pop(field, None)
    lines[0].set_event(created)
    lines[0].meta["visibility"] = "public"
    forge.rechain(saved.game_id, lines)
    forge.write(saved.history, lines)

    code = main([str(saved.history), "--json"])  # its receipts were signed on today's log
    report = json.loads(capsys.readouterr().out)

    assert code == 0, report
    seeds = next(c for c in report["checks"] if c["name"] == "seeds")
    assert seeds["detail"].startswith("no commitment at creation (rules before version 4)")


def test_given_the_four_player_game_then_the_report_reads_for_people(
        four_player_game: Saved, capsys: pytest.CaptureFixture[str]):
    code = main([str(four_player_game.history), "--receipts", str(four_player_game.receipts),
                 "--keys", str(four_player_game.keys)])
    out = capsys.readouterr().out

    assert code == 0, out
    assert f"game {four_player_game.game_id}" in out and "verified: every check passed" in out
    assert "0: player, 1: bot, 2: player, 3: none" in out  # every seat's seed, by source


# -- tampering ------------------------------------------------------------------------------

Tamper = Callable[[Saved, list[forge.Line], Saved], None]


def _card_changed(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    i = forge.first(lines, "cards_drawn", after=len(lines) // 3)
    event = lines[i].event()
    later = next(c for line in lines[i + 1:] if line.type == "cards_drawn"
                 for c in line.event()["cards"] if c not in event["cards"])
    event["cards"][0] = later
    lines[i].set_event(event)


def _card_changed_and_rechained(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    _card_changed(saved, lines, other)
    forge.rechain(saved.game_id, lines)


def _two_events_swapped(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    i = forge.first(lines, "cards_drawn", after=len(lines) // 2)
    lines[i - 1], lines[i] = lines[i], lines[i - 1]
    forge.rechain(saved.game_id, lines)


def _event_dropped(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    del lines[forge.first(lines, "turn_started", after=len(lines) // 2)]
    forge.rechain(saved.game_id, lines)


def _game_started(lines: list[forge.Line]) -> tuple[forge.Line, dict[str, Any]]:
    line = lines[forge.first(lines, "game_started")]
    return line, line.event()


def _seed_changed(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    line, event = _game_started(lines)
    event["seed"] = base64.b64encode(bytes(32)).decode()
    line.set_event(event)
    forge.rechain(saved.game_id, lines)


def _client_seed_changed(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    line, event = _game_started(lines)
    event["client_seeds"][0]["seed"] = base64.b64encode(b"a seed nobody sent").decode()
    line.set_event(event)
    forge.rechain(saved.game_id, lines)


def _rules_version_changed(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    for line in (lines[0], _game_started(lines)[0]):
        event = line.event()
        event["ruleset"]["rules_version"] = 3
        line.set_event(event)
    forge.rechain(saved.game_id, lines)


def _deal_rules_changed(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    line, event = _game_started(lines)
    event["ruleset"]["rules_version"] = 3
    line.set_event(event)
    forge.rechain(saved.game_id, lines)


def _timestamp_moved(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    i = len(lines) // 2
    before = datetime.fromisoformat(lines[i - 1].meta["recorded_at"])
    lines[i].meta["recorded_at"] = (before - timedelta(hours=1)).isoformat()


def _receipts(saved: Saved) -> Path:
    return saved.receipts / f"{saved.game_id}.receipts.ndjson"


def _receipt_forged(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    kept = [json.loads(r) for r in _receipts(saved).read_bytes().splitlines()]
    kept[len(kept) // 2]["chain_seal"] = "0" * 64  # would agree with any history: unsigned
    _receipts(saved).write_text("".join(json.dumps(r) + "\n" for r in kept))


def _receipt_of_another_game(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    theirs = _receipts(other).read_bytes().splitlines()[3]
    with _receipts(saved).open("ab") as out:
        out.write(theirs + b"\n")


def _tail_rewritten(saved: Saved, lines: list[forge.Line], other: Saved) -> None:
    """Another legal game from a player's command on: the chain, seeds and rules all hold;
    only what the server signed during the game tells the two apart."""
    codec = EventCodec()
    events = [codec.decode(line.type, line.meta["schema_version"], line.data)
              for line in lines]
    # Where the actor changes, one command ended and the next began.
    cut = next(i for i in range(len(lines) * 2 // 3, len(lines))
               if lines[i].meta["actor"] != lines[i - 1].meta["actor"]
               and lines[i].meta["actor"].startswith("player:"))
    state: GameState | None = None
    for ev in events[:cut]:
        if isinstance(ev, GameStarted):
            state = new_game(ev.ruleset)
        if state is not None and isinstance(ev, Event.__args__):  # type: ignore[attr-defined]
            state = evolve(state, ev)
    assert state is not None
    seat = state.pending_seats()[0]
    logged = events[cut:]
    for command in legal_commands(state, seat):
        new, _ = execute(state, command, seat)
        if list(new) != logged[:len(new)]:
            break
    template = lines[cut].meta
    del lines[cut:]
    for ev in new:
        lines.append(forge.Line({**template, "type": codec.type_of(ev),
                                 "schema_version": codec.schema_version(codec.type_of(ev)),
                                 "visibility": visibility_of(ev)}, default_codec.encode(ev)))
        template = {**template, "command_id": None}
    forge.rechain(saved.game_id, lines)


TAMPERS: dict[str, tuple[Tamper, str, str]] = {
    # name: (what the forger does, the check that must fail, what it must say)
    "a card changed in one event": (_card_changed, "hash chain", "the hash chain breaks"),
    "a card changed, the chain rebuilt": (_card_changed_and_rechained, "shuffles and rules",
                                          "draw is not the pile's top cards"),
    "two events swapped": (_two_events_swapped, "shuffles and rules", "version"),
    "an event dropped": (_event_dropped, "shuffles and rules", "version"),
    "a seed changed": (_seed_changed, "seeds", "not the one game_created committed to"),
    "a client seed changed": (_client_seed_changed, "seeds",
                              "client seeds are not the ones the seats sent"),
    "a receipt forged": (_receipt_forged, "receipts", "signature does not verify"),
    "a receipt from another game": (_receipt_of_another_game, "receipts", "a receipt of game"),
    "a tail rewritten with a consistent chain": (_tail_rewritten, "receipts",
                                                 "not the log the server signed"),
    "the rules version changed": (_rules_version_changed, "shuffles and rules",
                                  "cannot start as game_started says"),
    "the rules version changed at the deal alone": (_deal_rules_changed, "seeds",
                                                    "another rule set"),
    "a timestamp moved": (_timestamp_moved, "times", "before the event it follows"),
}


@pytest.mark.parametrize("name", TAMPERS)
def test_given_a_tampered_history_then_cya_verify_names_what_is_wrong(
        name: str, four_player_game: Saved, other_game: Saved, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]):
    tamper, check, says = TAMPERS[name]
    saved = _copy(four_player_game, tmp_path)
    lines = forge.read(saved.history)
    tamper(saved, lines, other_game)
    forge.write(saved.history, lines)

    code, report = _run(saved, capsys)

    failed = _failed(report)
    assert code == 1, report
    assert check in failed, failed
    assert says in failed[check], failed[check]
    if name in ("a tail rewritten with a consistent chain", "a timestamp moved"):
        assert list(failed) == [check]  # nothing but that check could have seen it


def test_given_a_history_that_is_not_one_then_cya_verify_says_so_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "g1.history.ndjson"
    bad.write_text('{"version": 1}\n')

    assert main([str(bad)]) == 2
    assert "line 1 is not a history line" in capsys.readouterr().err


def test_the_forger_writes_lines_the_verifier_reads_back_unchanged(four_player_game: Saved,
                                                                   tmp_path: Path):
    """The tampering helpers change only what each test changes."""
    saved = _copy(four_player_game, tmp_path)
    forge.write(saved.history, forge.read(saved.history))
    assert msgspec.json.decode(saved.history.read_bytes().splitlines()[0])["data"] == \
        msgspec.json.decode(four_player_game.history.read_bytes().splitlines()[0])["data"]
    assert saved.history.read_bytes() == four_player_game.history.read_bytes()


def test_given_the_wrong_game_id_then_the_chain_breaks_at_once_and_says_why(
        four_player_game: Saved, capsys: pytest.CaptureFixture[str]):
    code = main([str(four_player_game.history), "--game", "not-this-game"])

    assert code == 1
    out = capsys.readouterr().out
    assert "version 1: the hash chain breaks here" in out
    assert "(or not-this-game is not this history's game: --game)" in out
