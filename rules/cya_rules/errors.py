"""The one error `decide` raises: a rule violation with a stable code and a sentence."""

from __future__ import annotations

import enum


class RuleCode(enum.StrEnum):
    """Every code a `RuleViolation` carries: the engine's, and the table's around it (seats,
    clocks, the lobby). The API answers it as a 422's `rule` (or, for who the caller is, as a
    403's `code`), so a code is a promise to clients: add codes, never rename one."""

    ACTION_REQUIRED = "action_required"
    ALREADY_SEATED = "already_seated"
    ALREADY_STARTED = "already_started"
    CARD_NOT_AVAILABLE = "card_not_available"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    DISCARD_PILE_EMPTY = "discard_pile_empty"
    DUPLICATE_CARDS = "duplicate_cards"
    DUPLICATE_PLAYER = "duplicate_player"
    GAME_FULL = "game_full"
    GAME_NOT_OVER = "game_not_over"
    GAME_OVER = "game_over"
    INVALID_CARD = "invalid_card"
    INVALID_CLOCK = "invalid_clock"
    INVALID_COMMAND = "invalid_command"
    INVALID_PLAY = "invalid_play"
    INVALID_SEAT = "invalid_seat"
    INVALID_SEED = "invalid_seed"
    INVALID_SET = "invalid_set"
    INVALID_SPECTATOR_DELAY = "invalid_spectator_delay"
    INVALID_TARGET = "invalid_target"
    INVALID_TIMEOUT_POLICY = "invalid_timeout_policy"
    NO_OWN_SET = "no_own_set"
    NOT_CREATOR = "not_creator"
    NOT_EXPECTED = "not_expected"
    NOT_SEATED = "not_seated"
    NOT_STARTED = "not_started"
    NOT_YOUR_DECISION = "not_your_decision"
    NOT_YOUR_TURN = "not_your_turn"
    ONE_PILE_ONLY = "one_pile_only"
    OPTION_DISABLED = "option_disabled"
    RECHALLENGE_BLOCKED = "rechallenge_blocked"
    SEAT_TAKEN = "seat_taken"
    SEATS_OPEN = "seats_open"
    SERVER_ONLY = "server_only"
    STACK_TOO_SMALL = "stack_too_small"
    TARGET_HAS_NO_SET = "target_has_no_set"
    TARGET_PROTECTED = "target_protected"
    TOO_MANY_REACTIONS = "too_many_reactions"
    TOO_MANY_SEATS = "too_many_seats"


class RuleViolation(Exception):
    def __init__(self, code: RuleCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleViolation({str(self.code)!r}, {self.message!r})"
