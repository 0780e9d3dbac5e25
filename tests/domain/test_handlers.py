"""Routing lives in data (STYLE.md): a table maps each command and event class to the function
that decides, applies or (for a bot) scores it, or a `match` routes it by class (the table
layer's lobby and clocks). These hold every table and every such `match` complete, so a new
command or event without its handler fails here, not in a game."""

from __future__ import annotations

import ast
import inspect
import textwrap
import typing
from collections.abc import Callable

import pytest

from cya_rules import Event, SeatCommand
from cya_rules.bots import greedy, rollout
from cya_rules.decide import _SEAT_HANDLERS
from cya_rules.evolve import HANDLERS
from cya_rules.evolve_draft import DRAFT_HANDLERS
from cya_rules.table.lobby import LobbyEvent, evolve_lobby
from cya_rules.table.timeouts import TimeoutEvent, evolve_seats
from service.table.lobby_commands import CreateGame, LobbyCommand, decide_lobby


def test_given_every_seat_command_then_the_engine_has_its_decider():
    assert set(_SEAT_HANDLERS) == set(typing.get_args(SeatCommand))


def test_given_every_domain_event_then_the_fold_has_its_handler():
    assert set(HANDLERS) == set(typing.get_args(Event))
    assert set(DRAFT_HANDLERS) <= set(HANDLERS)


def test_given_every_seat_command_then_the_greedy_and_rollout_bots_score_it():
    # The bots' own tables: a command without a score fails a bot's decision in a game.
    assert set(greedy._SCORES) == set(typing.get_args(SeatCommand))
    assert set(rollout._SCORES) == set(typing.get_args(SeatCommand))


def routed_by_match(function: Callable[..., object]) -> list[str]:
    """The classes each `case` of the function's one `match` names, in order."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    (match,) = [node for node in ast.walk(tree) if isinstance(node, ast.Match)]
    return [pattern.cls.id for case in match.cases for pattern in ast.walk(case.pattern)
            if isinstance(pattern, ast.MatchClass) and isinstance(pattern.cls, ast.Name)]


@pytest.mark.parametrize(("function", "routes"), [
    (decide_lobby, set(typing.get_args(LobbyCommand)) - {CreateGame}),  # `create`'s
    (evolve_lobby, set(typing.get_args(LobbyEvent))),
    (evolve_seats, set(typing.get_args(TimeoutEvent))),
], ids=lambda v: getattr(v, "__name__", ""))
def test_given_every_table_command_and_event_then_its_match_has_a_case(function, routes):
    cases = routed_by_match(function)
    assert sorted(cases) == sorted(c.__name__ for c in routes)  # each once
