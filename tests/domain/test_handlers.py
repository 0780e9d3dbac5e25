"""Routing lives in data (STYLE.md): a table maps each command and event class to the function
that decides or applies it. These hold every table complete, so a new command or event
without its handler fails here, not in a game."""

from __future__ import annotations

import typing

from service.domain import Event, SeatCommand
from service.domain.decide import _SEAT_HANDLERS
from service.domain.evolve import _HANDLERS
from service.domain.evolve_draft import DRAFT_HANDLERS


def test_given_every_seat_command_then_the_engine_has_its_decider():
    assert set(_SEAT_HANDLERS) == set(typing.get_args(SeatCommand))


def test_given_every_domain_event_then_the_fold_has_its_handler():
    assert set(_HANDLERS) == set(typing.get_args(Event))
    assert set(DRAFT_HANDLERS) <= set(_HANDLERS)
