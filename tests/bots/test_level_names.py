"""Every place that lists the built-in bot levels for people names all of them: the registry
(`cya_rules.bots.levels.LEVELS`) is the one list, and a level added there must reach the
contract's descriptions, docs/bots.md, docs/tournaments.md and `cya-bot --help`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cya_rules.bots import LEVELS
from service.http.contract import CONTRACT

ROOT = Path(__file__).resolve().parents[2]
CYA_BOT = Path(sys.executable).parent / "cya-bot"


def _named(text: str) -> set[str]:
    return {level for level in LEVELS if re.search(rf"\b{level}\b", text)}


def _descriptions(node: Any, where: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            yield where, node["description"]
        for key, value in node.items():
            yield from _descriptions(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _descriptions(value, f"{where}/{i}")


def test_given_a_description_in_the_contract_that_lists_levels_then_it_lists_every_level():
    # One that names two levels as `code` is a list of them (BotEntrant's said "random or greedy").
    listing = [(where, text) for where, text in _descriptions(json.loads(CONTRACT.read_text()))
               if len(re.findall(r"`(?:random|greedy|expert|ismcts)`", text)) >= 2]

    assert any("BotEntrant" in where for where, _ in listing)
    for where, text in listing:
        assert _named(text) == set(LEVELS), (where, text)


def test_given_the_docs_and_the_runners_help_then_each_names_every_level():
    bots = (ROOT / "docs" / "bots.md").read_text()
    tournaments = (ROOT / "docs" / "tournaments.md").read_text()
    entrants = tournaments[tournaments.index("- **Entrants**"):].split("\n- ", 1)[0]
    table = "\n".join(re.findall(r"^\| `(\w+)` \|", bots, re.MULTILINE))
    help_text, simulate_help = (
        subprocess.run([CYA_BOT, command, "--help"], capture_output=True, text=True,
                       check=True, env={**os.environ, "COLUMNS": "200"}).stdout
        for command in ("play", "simulate"))

    assert _named(table) == set(LEVELS)
    assert _named(entrants) == set(LEVELS), entrants
    assert _named(help_text[help_text.index("--bots"):]) == set(LEVELS), help_text
    assert _named(simulate_help[simulate_help.index("--against"):]) == set(LEVELS)
