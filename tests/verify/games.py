"""Real games played through a real server, saved as an auditor keeps them: the history as
`GET /history` serves it (`<id>.history.ndjson`), its salt header (`<id>.salt`), the receipts
every answer carried, kept by the SDK's own `ReceiptBox` (`receipts/`), and the server's
public keys (`keys.json`, `GET /v1/receipt-keys`)."""

from __future__ import annotations

import base64
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from cya_client.models import Receipt
from cya_client.receipts import ReceiptBox

from cya_rules import RuleSet


@dataclass(frozen=True)
class Saved:
    game_id: str
    folder: Path  # the history, its salt and keys.json; receipts/ beside them
    players: int
    edition: str
    rules_version: int

    @property
    def history(self) -> Path:
        return self.folder / f"{self.game_id}.history.ndjson"

    @property
    def receipts(self) -> Path:
        return self.folder / "receipts"

    @property
    def keys(self) -> Path:
        return self.folder / "keys.json"


def _player(http: httpx.Client, name: str) -> dict[str, str]:
    r = http.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['api_key']}"}


def _seed(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(32)).decode()


def _keep(box: ReceiptBox, raw: Any) -> None:
    if raw is not None:
        box.keep(msgspec.convert(raw, Receipt))


def play_and_save(http: httpx.Client, folder: Path, *, players: int, edition: str,
                  rules_version: int, bot: bool = False, seed: int = 1) -> Saved:
    """A game with client seeds (all but the last human seat send one; seat 1 a bot if
    `bot`), played to its end by random legal commands over HTTP, then saved."""
    rng = random.Random(seed)
    box = ReceiptBox(folder / "receipts")
    creator = _player(http, "creator")
    rules = {"players": players, "edition": edition, "end_mode": "quick",
             "rules_version": rules_version}
    with pytest.MonkeyPatch.context() as patch:
        # The server as it was when that rules version was current: it recorded its own.
        patch.setattr(RuleSet, "for_new_game", lambda self: self)
        r = http.post("/v1/games", headers=creator, json={
            "ruleset": rules, "bots": [{"level": "random", "seat": 1}] if bot else [],
            "client_seed": _seed(rng)})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    humans = {0: creator}
    for i in range(1, players):
        if bot and i == 1:
            continue
        who = _player(http, f"p{i}")
        body = {} if i == players - 1 else {"client_seed": _seed(rng)}  # the last sends none
        r = http.post(f"/v1/games/{game_id}/seats", headers=who, json={"seat": i, **body})
        assert r.status_code == 200, r.text
        humans[i] = who
    r = http.post(f"/v1/games/{game_id}/start", headers=creator)
    assert r.status_code == 200, r.text
    _play_out(http, game_id, humans, box, rng)
    r = http.get(f"/v1/games/{game_id}/history", headers=creator)
    assert r.status_code == 200, r.text
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{game_id}.history.ndjson").write_bytes(r.content)
    (folder / f"{game_id}.salt").write_text(r.headers["Cya-Receipt-Salt"] + "\n")
    _keep(box, msgspec.json.decode(r.headers["Cya-Receipt"]))
    (folder / "keys.json").write_bytes(http.get("/v1/receipt-keys").content)
    return Saved(game_id, folder, players, edition, rules_version)


def _play_out(http: httpx.Client, game_id: str, humans: dict[int, dict[str, str]],
              box: ReceiptBox, rng: random.Random) -> None:
    some = next(iter(humans.values()))
    for _ in range(20_000):
        view = http.get(f"/v1/games/{game_id}/view", headers=some).json()
        if view["status"] == "finished":
            return
        seat = view["awaiting"][0]
        if seat not in humans:  # a bot's move: the server's scheduler makes it
            time.sleep(0.01)
            continue
        turn = http.get(f"/v1/games/{game_id}/turn", headers=humans[seat],
                        params={"timeout": 0}).json()
        _keep(box, turn.get("receipt"))
        legal = turn.get("legal_commands") or []
        if not legal:
            continue
        r = http.post(f"/v1/games/{game_id}/commands", headers=humans[seat],
                      json=rng.choice(legal))
        if r.status_code == 409:  # the game moved on (a bot) between the two reads
            continue
        assert r.status_code == 200, r.text
        _keep(box, r.json()["receipt"])
    raise AssertionError(f"{game_id} did not finish")
