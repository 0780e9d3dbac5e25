"""The API's shapes as msgspec structs: views, commands, events, news, problems, turns.

GENERATED from openapi/openapi.json by clients/python/scripts/generate_models.py: do not edit
by hand; run the script after the contract changes (a test fails while this file is stale).
"""

# ruff: noqa: E501

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, TypeAlias

import msgspec
from msgspec import UNSET as UNSET
from msgspec import UnsetType as UnsetType

#: How a bot plays: `random` (any legal move), `greedy` (the move its heuristics score best),
#: `expert` (a hand-written player that counts cards) or `ismcts` (information-set Monte Carlo tree
#: search: the strongest). GET /v1/rulesets describes each level.
BotLevel: TypeAlias = Literal["random", "greedy", "expert", "ismcts"]


#: What a challenge is for: a stack's top set, its second set, or a drafted set.
ChallengeKind: TypeAlias = Literal["stack_top", "stack_second", "draft"]


#: `open`, `accepted` (with `game_id`), `declined` (with `reason`) or `cancelled`.
ChallengeStatus: TypeAlias = Literal["accepted", "cancelled", "declined", "open"]


#: Which way a stack moves: its top set to the bottom, or its bottom set to the top.
Direction: TypeAlias = Literal["top_to_bottom", "bottom_to_top"]


#: Rulebook and deck: classic_2011, en_2022 or de_2024 (§1).
Edition: TypeAlias = Literal["classic_2011", "en_2022", "de_2024"]


#: When the game ends (§12).
EndMode: TypeAlias = Literal[
    "to_million",
    "quick",
    "highest_after_3_rounds",
    "first_to_2_round_wins",
]


#: `lobby` before the deal, `playing` or `finished`.
GameStatus: TypeAlias = Literal["abandoned", "expired", "finished", "lobby", "playing"]


#: Later rounds start left of the last first player, or with the poorest (§5.4).
LaterRoundsStart: TypeAlias = Literal["rotate_left", "poorest"]


#: `waiting`, `matched` (with `game_id`) or `cancelled`.
SeekStatus: TypeAlias = Literal["cancelled", "matched", "waiting"]


#: Where a set's cards came from: two from the hand, or one from the hand and the discard pile's
#: top.
SetSource: TypeAlias = Literal["hand", "discard"]


#: A top total shared when the game would end: play another round, or share the win (§12.5). It
#: never applies to first_to_2_round_wins, where a tied round gives no round win and one seat alone
#: can reach two.
TiePolicy: TypeAlias = Literal["extra_round", "shared_win"]


class AddBotBody(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The optional body of `POST /v1/games/{game_id}/bots` (creator only): the bot to seat."""
    #: How the bot plays: `random`, `greedy`, `expert` or `ismcts` (the strongest); GET /v1/rulesets
    #: describes each. Default: `"random"`.
    level: BotLevel | UnsetType = UNSET
    #: The seat to give it; null: the lowest open seat.
    seat: int | UnsetType | None = UNSET


class AdvancedOptions(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The optional rules of RULES §13, each independently toggleable."""
    #: Add Swap ×2 and Move ×2 to the deck (§13.4). Default: `false`.
    action_cards: bool | UnsetType = UNSET
    #: Deal and refill six cards (§13.1). Default: `false`.
    hand_size_six: bool | UnsetType = UNSET
    #: Add a matching asset from hand to your top set as an action (§13.3). Default: `false`.
    improve_set: bool | UnsetType = UNSET
    #: After losing a challenge, no new challenge against that seat until your next turn. null: the
    #: edition's default — on with two_actions for en_2022, off for de_2024 (§13.2, §17 A37).
    no_rechallenge_after_loss: bool | UnsetType | None = UNSET
    #: Add Penny Jar ×2: a $1,000 wild that counts double in challenges (§13.5). Default: `false`.
    penny_jar: bool | UnsetType = UNSET
    #: The set second from the top can be challenged with a double (§13.6). Default: `false`.
    second_set_challenge: bool | UnsetType = UNSET
    #: Up to two actions per turn; a first-action discard refills at once (§13.2). Default: `false`.
    two_actions: bool | UnsetType = UNSET


class AwaitingAction(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="action"):
    """
    The active seat's turn: it must take an action (§7), or, after its first action with
    two_actions, may take a second one or end the turn (§13.2).
    """
    #: Actions already taken this turn. 0: an action is required. 1 (only with two_actions): a
    #: second action, or end_turn (§13.2).
    actions_taken: int
    #: The active seat, whose turn it is.
    seat: int


class AwaitingChallengeReply(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge"):
    """
    A challenge is running: the awaited seat must respond with the required play or concede (§8.4).
    """
    #: The seat that must answer now: the challenger or the defender, in turn.
    awaiting: int
    #: The seat that opened the challenge.
    challenger: int
    #: The seat whose set is contested; for a draft, the drafter.
    defender: int
    #: What is contested: stack_top, the defender's top set; stack_second, the set second from the
    #: top (§13.6); draft, a drafted set challenged out of turn (§14.3).
    kind: ChallengeKind
    #: Every play so far, in order, the opening first. The winner adds them all to the contested set
    #: (§8.5).
    pot: list[Play]
    #: The play the awaited seat owes. 1: a single (one matching card, not a Penny Jar) or a Penny
    #: Jar, which asks for a double back. 2: a double (two matching cards, neither a Penny Jar, or
    #: one Penny Jar) (§8.2, §8.4).
    required: int
    #: Asset type of the contested set: assets of this type and wilds match it.
    set_type: str
    #: Position of the contested set in the defender's stack, 0 being the bottom; -1 for a drafted
    #: set.
    target_index: int


class AwaitingDraftChallenge(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="draft_window"):
    """
    A set was just drafted: the eligible opponent may challenge it out of turn (challenge_draft) or
    let the drafter keep it (pass_draft) (§14.3).
    """
    #: The seat that drafted the set: the active seat.
    drafter: int
    #: The only seat that may challenge the drafted set.
    eligible: int


class AwaitingMoveDirections(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="move_directions"):
    """
    A Move was revealed on a draft pile: each affected seat in turn picks the direction for the
    other affected seat's stack with choose_move_direction (§14.6).
    """
    #: Seats still to choose, in order (the active seat first); the first one chooses now. A seat
    #: does not choose when the other seat's stack has fewer than two sets.
    awaiting: list[int]
    #: The revealed Move card's id.
    card: str
    #: Choices made so far, each the other seat's stack and its direction; they are applied together
    #: once the last seat has chosen.
    choices: list[StackMove]
    #: The draft pile the Move card was revealed on.
    pile: int


class BotAttemptOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One POST of a decision to your bot endpoint, or the verdict on its answer."""
    #: When it was recorded.
    at: datetime
    #: Increasing; pass it as `?before=` for older attempts.
    attempt_id: int
    #: What went wrong, for people.
    error: str | None
    #: The game.
    game_id: str
    #: From sending to the whole answer (or the failure).
    latency_ms: float
    #: The `webhook-id` sent (the same for every attempt at one decision).
    message_id: str
    #: `accepted` (the command was played), `illegal` (not a command, or one the rules refuse),
    #: `late` (no answer before the deadline), `http_error` (a status other than 2xx; 5xx is tried
    #: again), `network_error` (tried again), `too_large`, `refused` (the URL resolves to a refused
    #: address), `moved_on` (the game moved on meanwhile).
    outcome: str
    #: Your seat.
    seat: int
    #: The HTTP status answered, if any.
    status_code: int | None
    #: The game's version the decision was asked at.
    version: int


class BotAttempts(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your bot endpoint's attempts, newest first."""
    #: Newest first.
    attempts: list[BotAttemptOut]
    #: Pass as `?before=` for the next page; null on the last.
    next_before: int | None


class BotEndpointIn(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    Register (or replace) your bot endpoint: while it is registered, every seat you hold is played
    by POSTing each decision to it.
    """
    #: Where to POST: `http` or `https`, resolving to a public address (private, loopback and
    #: link-local addresses are refused unless the server allows them).
    url: str


class BotEndpointOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your bot endpoint (its secret is shown only when made or rotated)."""
    #: When it was registered.
    created_at: datetime
    #: When its secret was last made.
    secret_rotated_at: datetime
    #: Where decisions are POSTed.
    url: str


class BotEndpointSecret(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your bot endpoint with its new secret."""
    #: When it was registered.
    created_at: datetime
    #: The signing secret (`whsec_…`), shown only in this answer: verify each delivery's
    #: `webhook-signature` with it (Standard Webhooks).
    secret: str
    #: When its secret was last made.
    secret_rotated_at: datetime
    #: Where decisions are POSTed.
    url: str


class BotEntrant(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="kind", tag="bot"):
    """One of the server's built-in bots. Several entrants may share a level."""
    #: The bot level: `random`, `greedy`, `expert` or `ismcts`; GET /v1/rulesets describes each.
    level: str


class BotLevelInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A level of the server's bots, as `GET /v1/rulesets` lists it."""
    #: How a bot of this level plays.
    description: str
    #: The level, as a bot seat's `level` names it.
    level: BotLevel


class BotSeat(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="kind", tag="bot"):
    """A seat played by one of the server's bots."""
    #: How the bot plays: `random` (any legal move), `greedy` (the legal move its heuristics score
    #: best), `expert` (a hand-written player that counts cards) or `ismcts` (a search over the
    #: cards it cannot see: the strongest). GET /v1/rulesets describes each.
    level: BotLevel


class BotSpec(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A bot to seat when creating a game: an item of `bots` in `POST /v1/games`."""
    #: How the bot plays: `random`, `greedy`, `expert` or `ismcts` (the strongest); GET /v1/rulesets
    #: describes each. Default: `"random"`.
    level: BotLevel | UnsetType = UNSET
    #: The seat to give it; null: the lowest seat still open once the bots given a seat number and
    #: the creator (`join`) sit down.
    seat: int | UnsetType | None = UNSET


class CardDiscarded(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="card_discarded"):
    """The active seat discarded a card face up; it is the discard pile's new top (§7.2)."""
    #: The discarded card's id.
    card: str
    #: The seat that discarded: the active seat.
    seat: int


class CardSet(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A set: at least one asset of a single asset type plus any number of wilds (§4)."""
    #: Every card id in the set, assets first, then wilds; the order is cosmetic (§17 A22).
    cards: list[str]
    #: The set's asset type, e.g. `jewels`; never a wild's type.
    type: str


class CardTypeInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One card type of an edition's deck, as `GET /v1/rulesets` lists it."""
    #: How many copies a full deck holds.
    copies: int
    #: `asset`, `wild` or `action`.
    kind: str
    #: Its German name.
    name_de: str
    #: Its English name.
    name_en: str
    #: The card type's id; each copy's card id is `<type>#<n>`, numbered from 1 (e.g. `jewels#3`).
    type: str
    #: Its value in dollars; 0 for an action card.
    value: int


class CardsDrawn(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="cards_drawn"):
    """
    A seat drew cards from the draw pile: refilling at the end of a turn (§9), or right after a
    first-action discard with two_actions (§13.2). Only the drawing seat sees which cards.
    """
    #: The drawn card ids, in the order drawn, for the drawing seat; null for everyone else,
    #: spectators included.
    cards: list[str] | None
    #: Number of cards drawn; fewer than needed if the draw pile ran out (§17 A16).
    count: int
    #: replenish: the end-of-turn refill (§9); discard_refill: the immediate refill after a discard
    #: as the first of two actions (§13.2).
    reason: Literal["replenish", "discard_refill"]
    #: The seat that drew.
    seat: int


class Catalogue(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What `GET /v1/rulesets` returns: the editions with their cards, presets, rule options."""
    #: The levels of the server's bots, weakest first: a bot seat's `level`, and a timeout policy's
    #: `bot_level`. docs/bots.md gives each level's measured strength.
    bot_levels: list[BotLevelInfo]
    #: The version every new game is created under.
    current_rules_version: int
    #: Every edition, with its cards.
    editions: list[EditionInfo]
    #: The presets by name: `classic` (no advanced option) and `advanced_all` (every advanced option
    #: on), shown for 4 players of en_2022.
    presets: dict[str, RuleSet]
    #: Every rules version, oldest first, with what changed in each. A game keeps the version it was
    #: created under (its rule set's `rules_version`); new games get the last one.
    rules_versions: list[RulesVersion]
    #: The JSON Schema of a rule set (`ruleset` in `POST /v1/games`), with every option's default
    #: and description.
    ruleset_schema: dict[str, Any]


class Challenge(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge"):
    """
    Turn action: open a challenge on another seat's top (or second) set with an opening play (§7.3,
    §8.3). You need a set of your own.
    """
    #: Your opening play, card ids from your hand. top: one matching card (an asset of the set's
    #: type or a wild); a Penny Jar asks for a double back. second: two matching cards that are not
    #: Penny Jars, or one Penny Jar (§8.3).
    cards: list[str]
    #: top: its top set. second: the set second from the top, with second_set_challenge.
    position: Literal["top", "second"]
    #: Seat number of another seat. Its bottom set is safe, so it needs at least two sets for top,
    #: three for second (§7.3).
    target_seat: int


class ChallengeAnswered(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge_answered"):
    """
    The awaited seat answered a running challenge with the required play (§8.4); the other side must
    answer in turn or concede.
    """
    #: The play from the seat's hand: one card, or two for a double.
    cards: list[str]
    #: The play the other side must now make. 1: a single (one matching card, not a Penny Jar) or a
    #: Penny Jar, which asks for a double back. 2: a double (two matching cards, neither a Penny
    #: Jar, or one Penny Jar) (§8.2).
    required: int
    #: The seat that answered: the challenger or the defender.
    seat: int


class ChallengeConceded(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge_conceded"):
    """
    The awaited seat gave up the challenge; the other side wins the contested set and every card
    played (§8.5).
    """
    #: true when the server conceded for the seat because it had no legal play, e.g. an empty hand
    #: (§7.9, §17 A43).
    auto: bool
    #: The seat that gave up: the challenger or the defender.
    seat: int


class ChallengeDraft(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge_draft"):
    """The eligible opponent challenges a drafted set out of turn (§14.3)."""
    #: Your opening play, card ids from your hand: one card matching the drafted set (an asset of
    #: its type or a wild) or one Penny Jar (§8.3).
    cards: list[str]


class ChallengeOpened(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge_opened"):
    """
    A challenge began (§8.3): the challenger played matching cards against another seat's set, as
    its action (§7.3) or out of turn against a drafted set (§14.3). The defender answers next.
    """
    #: The opening play from the challenger's hand: its card ids (§8.3).
    cards: list[str]
    #: The seat that opened the challenge.
    challenger: int
    #: The seat whose set is contested; for a draft, the drafter.
    defender: int
    #: What is contested: stack_top, the defender's top set; stack_second, the set second from the
    #: top (§13.6); draft, a drafted set challenged out of turn (§14.3).
    kind: ChallengeKind
    #: The play the defender must now make. 1: a single (one matching card, not a Penny Jar) or a
    #: Penny Jar, which asks for a double back. 2: a double (two matching cards, neither a Penny
    #: Jar, or one Penny Jar) (§8.2).
    required: int
    #: Asset type of the contested set: assets of this type and wilds match it.
    set_type: str
    #: Position of the contested set in the defender's stack, 0 being the bottom; -1 for a drafted
    #: set.
    target_index: int


class ChallengeOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A challenge as it stands."""
    #: Who accepted it.
    accepted_by: str | None
    #: The bots in the other seats.
    bots: list[BotLevel]
    #: The challenge's id.
    challenge_id: str
    #: The challenging player's id.
    challenger: str
    #: When it was made.
    created_at: datetime
    #: The game it became, once accepted: already dealt.
    game_id: str | None
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last.
    rated: bool
    #: Why it was declined.
    reason: str | None
    #: How the game is played.
    ruleset: RuleSet
    #: The challenger's seat.
    seat: int
    #: `open`, `accepted` (with `game_id`), `declined` (with `reason`) or `cancelled`.
    status: ChallengeStatus
    #: The challenged player's id; null: open to anyone.
    to: str | None
    #: Seconds a decision; null: no clock.
    turn_clock: int | None
    #: When it last changed.
    updated_at: datetime


class ChooseMoveDirection(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="choose_move_direction"):
    """
    After a Move is revealed on a draft pile: choose the direction for the other affected seat's
    stack, when the pending move_directions decision awaits you (§14.6).
    """
    #: top_to_bottom: that stack's top set goes to its bottom. bottom_to_top: its bottom set goes to
    #: its top.
    direction: Direction


class ClientSeed(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One seat's contribution to the deal, as `game_started` names it."""
    #: The seat, 0-based.
    seat: int
    #: The seat's client seed (0 to 64 bytes; JSON: standard base64). Empty when the seat's player
    #: sent none.
    seed: str
    #: player: sent by the seat's player. bot: a bot seat's, HMAC-SHA-256(master seed,
    #: "bot:<seat>"), fixed by the commitment at creation. none: the player sent none, so the seat
    #: contributes the empty value.
    source: Literal["player", "bot", "none"]


class ClientSeedBody(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The body of `POST /v1/games/{game_id}/client-seed`: your seat's client seed."""
    #: Your seat's contribution to the deal's randomness (rules version 4, docs/fair-shuffle.md §7):
    #: 0 to 64 bytes, standard base64 in JSON, best from a CSPRNG (the web client and the SDK send
    #: 32 random bytes by default). Secret from everyone else until the deal; then `game_started`
    #: names every seat's. Sent again before the deal, it replaces the last one; none sent: the seat
    #: contributes an empty value, and `game_started` says so.
    seed: str


class ClientSeedSet(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="client_seed_set"):
    """
    Before the deal, a seat's player sent its client seed (it replaces any earlier one). Only that
    seat sees the seed; everyone else sees null, until `game_started` names it.
    """
    #: The seat, 0-based.
    seat: int
    #: The client seed (0 to 64 bytes): to its own seat; null to everyone else.
    seed: str | None


class ClockRestarted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="clock_restarted"):
    """
    The pending decision's turn clock ran out while the service could not act on it (its expiry was
    taken more than the outage grace late): the clock starts again, in full, from this event, once
    per decision; the next expiry of this decision is final.
    """
    #: How many seconds after its deadline the service took the expiry.
    late_s: float
    #: The id of the player who holds the seat.
    player_id: str
    #: Why, in words, e.g. `the 60-second turn clock ran out 17.2 s before the service could act on
    #: it`.
    reason: str
    #: The seat whose clock starts again.
    seat: int


class CommandResult(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The answer of `POST /v1/games/{game_id}/commands`: the events caused and the new version."""
    #: Whether the events were stored: false for `?dry_run=true`.
    committed: bool
    #: The events the command caused, as you may see them; a dry run's as a spectator would, and
    #: only as far as `partial` says.
    events: list[EventOut]
    #: The game's id.
    game_id: str
    #: True for a dry run that stops short: the game would go on by itself from there in a way that
    #: depends on cards hidden from you (whether another seat holds an answer, a face-down pile
    #: card, a round's end), so those events are left out, and so is whether they would happen.
    #: False otherwise.
    partial: bool
    #: The server's signed receipt for the log at `version` (docs/receipts.md): keep it. Null for a
    #: dry run (nothing was stored), or when the operator turned receipts off.
    receipt: Receipt | None
    #: True when this `Idempotency-Key` came with this command before: the answer is the first
    #: request's result, and nothing new happened.
    replayed: bool
    #: With `?turn=true`: your turn after the command, as `GET /turn?timeout=0` answers it (its
    #: `version` may be past this one: bots may have moved since). Null otherwise.
    turn: Turn | None
    #: The game's version after the command (for a dry run, the one its shown events would reach).
    version: int


class Concede(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="concede"):
    """
    Give up a challenge that awaits you: the other side wins the set and every card played in it
    (§8.5). Without a legal play you concede automatically (§7.9).
    """


class DecisionTimedOut(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="decision_timed_out"):
    """
    A human seat's turn clock ran out: a bot takes this one decision for it (the game's
    timeout_policy), and the bot's move follows at once as game events.
    """
    #: How the bot that decides instead plays: `random`, `greedy`, `expert` or `ismcts`.
    bot_level: BotLevel
    #: This seat's timeouts since its player last decided for themselves, this one included.
    consecutive: int
    #: The decision that timed out, as the pending decision's `type`: `action`, `challenge`,
    #: `draft_window` or `move_directions`.
    decision: str
    #: The id of the player who holds the seat.
    player_id: str
    #: Why, in words, e.g. `no decision within the 60-second turn clock`.
    reason: str
    #: The seat whose clock ran out.
    seat: int


class DeclineChallenge(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The optional body of `POST /v1/challenges/{challenge_id}/decline`."""
    #: Why, in a few words; the challenger hears it.
    reason: str | UnsetType | None = UNSET


class DeliveryAttemptOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    One POST of a message to the subscription's URL. An attempt whose worker stopped before it
    recorded an answer (killed mid-delivery) is recorded when the next one begins: `ok` false, no
    status, latency 0, and an `error` beginning `interrupted:`.
    """
    #: When.
    at: datetime
    #: What went wrong, for people.
    error: str | None
    #: From sending to the whole answer (or the failure); 0 for an interrupted attempt.
    latency_ms: float
    #: Whether the receiver answered 2xx.
    ok: bool
    #: The HTTP status answered, if any.
    status_code: int | None


class DeliveryLog(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The delivery log, newest first."""
    #: Newest first.
    deliveries: list[DeliveryOut]


class DeliveryOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One message owed to the subscription, with its attempts."""
    #: Every attempt, oldest first.
    attempts: list[DeliveryAttemptOut]
    #: When it was owed.
    created_at: datetime
    #: When a receiver took it; null while owed.
    delivered_at: datetime | None
    #: The game.
    game_id: str
    #: The `webhook-id` it is sent with (on every attempt).
    message_id: str
    #: When it is (or was) due next.
    next_attempt_at: datetime
    #: The message's type.
    type: Literal["seated", "game_started", "your_turn", "game_finished", "events"]
    #: The game's version it tells of.
    version: int


class Discard(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="discard"):
    """
    Turn action: put a card from your hand face up on the discard pile (§7.2). With two_actions, a
    discard as your first action refills your hand at once (§13.2).
    """
    #: Id of any card in your hand, wilds and action cards included (§17 A19, A20).
    card: str


class DraftChallengePassed(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="draft_challenge_passed"):
    """
    The eligible opponent let the drafter keep the drafted set, which goes on top of the drafter's
    stack (§14.3).
    """
    #: true when the server passed for the seat because it could not challenge: no matching card, no
    #: set of its own where one is required, or blocked after a lost challenge (§13.2, §14.3).
    auto: bool
    #: The eligible seat that passed.
    seat: int


class DraftInProgress(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    A drafted set held aside until its out-of-turn challenge window, and any challenge, is over;
    then it goes on top of the winner's stack (§14.2, §14.3).
    """
    #: The seat that drafted the set.
    drafter: int
    #: The draft piles the cards were taken from; their next cards are turned face up once the draft
    #: is resolved (§17 A50).
    piles: list[int]
    #: The drafted set: the hand card and the pile cards taken.
    set: CardSet


class DraftSet(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="draft_set"):
    """
    Turn action in 2- and 3-player games of en_2022 and de_2024: combine one hand card with face-up
    draft pile tops into a set (§14.2).
    """
    #: Id of one card from your hand: an asset or a wild.
    hand_card: str
    #: Ids of the face-up draft pile tops you take, at least one; with 3 players exactly one, from a
    #: pile next to you. With the hand card: at least one asset, assets of one type only, and any
    #: number of wilds (§14.2, §17 A27).
    pile_cards: list[str]


class EditionInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An edition and its cards, as `GET /v1/rulesets` lists it."""
    #: The cards the advanced options `action_cards` and `penny_jar` add; none for classic_2011.
    advanced_cards: list[CardTypeInfo]
    #: The deck without advanced options, in the order of the rulebook's contents.
    classic_cards: list[CardTypeInfo]
    #: The edition, as a rule set's `edition` names it.
    id: Edition
    #: How many copies of each card type a 2-player game leaves out: the highest-numbered ones.
    two_player_removed: dict[str, int]


class EndTurn(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="end_turn"):
    """
    With two_actions: end your turn after your first action instead of taking a second one (§7.8,
    §13.2).
    """


class EventOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One event of a game's log, redacted for you: in event pages, the stream, command results."""
    #: The event, redacted for you; `type` says which it is.
    event: Event
    #: The event's version: its place in the game's log, from 1.
    version: int


class EventPage(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A page of the log as you may see it, as `GET /v1/games/{game_id}/events` returns it."""
    #: The seats whose decision the game waits for at `version`; empty when it waits for none.
    awaiting: list[int]
    #: When the pending decision times out (turn clock); null without a clock, for a bot's decision,
    #: or when no decision is pending.
    deadline: datetime | None
    #: The events after `?after=`, oldest first, at most `?limit=` of them.
    events: list[EventOut]
    #: The game's id.
    game_id: str
    #: Pass it as `?after=` for the next page: the last version on this page, or `after` itself when
    #: the page is empty.
    next_after: int
    #: The server's signed receipt for the log at `next_after`, the version this page brings you to
    #: (docs/receipts.md): keep it. Null when no event is at `next_after` (0, or past the log's
    #: end), or when the operator turned receipts off.
    receipt: Receipt | None
    #: The game's current version: the number of events in its log.
    version: int


class Flipping(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="flipping"):
    """
    Draft piles still have a next card to turn face up, or a revealed action card to resolve (§14.2,
    §14.6). The server goes on at once: only GET /state at a version in the middle of a command
    shows it, never GET /view.
    """


class FormSet(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="form_set"):
    """
    Turn action: form a pair, two assets of one type or one asset and one wild, as a new set on top
    of your stack (§7.1). GET /legal-commands lists every command you may send now.
    """
    #: Card ids from your hand: two with source hand, one with source discard (the discard pile's
    #: top card is taken without being named).
    hand_cards: list[str]
    #: hand: both cards from your hand. discard: one from your hand and the discard top.
    source: SetSource


class GameAbandoned(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_abandoned"):
    """
    A running game without a turn clock waited on a human seat too long: it ended abandoned, without
    winners; ratings leave it out.
    """
    #: The player who held that seat.
    player_id: str
    #: Why, in words, e.g. `no human acted for 7 days`.
    reason: str
    #: The seat whose decision the game waited for.
    seat: int


class GameCreated(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_created"):
    """
    A game was created: the first event of its log. Players take its open seats, and the creator
    starts it (game_started) once every seat is filled.
    """
    #: The creator's seat's client seed, when the creator sits and sent one: null but to the server
    #: (history), until game_started names it.
    client_seed: str | None
    #: Whether the deal mixes in every seat's client seed (rules version 4); false at a tournament's
    #: table, dealt from the seed the tournament committed to, and in games of older rules versions.
    client_seeds: bool
    #: The player id of the game's creator.
    creator: str
    #: Seats kept for invited players (a rematch's), by seat number: the player id, or null; empty
    #: when nobody is invited. Only that player may take a kept seat, until they decline it.
    invited: list[str | None]
    #: The secret master seed behind `seed_sha256`: null but in `GET /history`.
    master_seed: str | None
    #: Listed in the lobby and open to spectators. A private game is open only to its creator and
    #: players; its id is the invitation to take a seat.
    public: bool
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last.
    rated: bool
    #: The game this one is a rematch of; null if none.
    rematch_of: str | None
    #: How the game is played.
    ruleset: RuleSet
    #: Who controls each seat, by seat number: a human player or a bot; null: open for a human
    #: player to take.
    seats: list[SeatHolder | None]
    #: SHA-256 (hex) of the game's secret master seed, committed to before any seat sends a client
    #: seed; the seed itself is revealed in `GET /history` (game_started.seed) once the game is over
    #: (rules version 4, docs/fair-shuffle.md §7). Null in games created before, whose seed was
    #: drawn at the deal.
    seed_sha256: str | None
    #: While the game runs, watchers (anyone without a seat) see it this many events behind the
    #: table, as broadcasts of card games are delayed, so that nobody watching can tell a player the
    #: cards as they fall; 0: live. The seated players see their game live, and once it is over
    #: everyone sees all of it.
    spectator_delay: int
    #: What happens when a human seat's decision is not taken in time, and who plays a resigned
    #: seat.
    timeout_policy: TimeoutPolicy
    #: Seconds a human seat has for each decision; null: no clock.
    turn_clock: int | None


class GameDetail(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A game as `GET /v1/games/{game_id}` returns it: its summary and what a spectator sees."""
    #: The game's seats, rules and progress.
    summary: GameSummary
    #: The game as a spectator sees it, even for a seated caller; null before the deal.
    view: GameView | None


class GameEnded(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_ended"):
    """The game is over (§12); it follows the last round's round_ended."""
    #: Each seat's final cumulative score in dollars, by seat number.
    totals: list[int]
    #: The winning seats: one, or several on a shared win (tie_policy shared_win, §12.5).
    winners: list[int]


class GameOver(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_over"):
    """The game is over: `winners` in the view names the winning seats (§12)."""


class GamePage(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A page of the lobby, as `GET /v1/games` returns it."""
    #: The games that match the filters (public ones, or with `mine=true` yours), newest first.
    games: list[GameSummary]
    #: Pass it as `?cursor=` for the next page; null on the last page.
    next_cursor: str | None


class GameStarted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_started"):
    """
    The game's creator started it, every seat being filled; the first round's deal (round_started)
    follows at once.
    """
    #: Every seat's client seed, by seat, mixed with the master seed into every round's seed (rules
    #: version 4, docs/fair-shuffle.md §7): public from the deal on, secret before it. Absent in
    #: games of older rules versions and at a tournament's tables, dealt from the master seed alone.
    client_seeds: list[ClientSeed] | UnsetType | None = UNSET
    #: The rules the game is played with.
    ruleset: RuleSet
    #: The game's secret master seed, from which every round's seed is derived. Null in events
    #: pages, streams and command results; `GET /history` has it.
    seed: str | None


class GameSummary(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    A game's seats, rules and progress: returned by `POST /v1/games` and the seat, bot, start, leave
    and resign routes, and listed by `GET /v1/games`.
    """
    #: The seats whose decision the game waits for; empty when it waits for none.
    awaiting: list[int]
    #: When the game was created.
    created_at: datetime
    #: The player id of the game's creator.
    creator: str
    #: When the pending decision times out (turn clock); null without a clock, for a bot's decision,
    #: or when no decision is pending.
    deadline: datetime | None
    #: Why the game ended without a result (`expired`, `abandoned`); null otherwise.
    end_reason: str | None
    #: The game's id, for the `/v1/games/{game_id}` routes.
    game_id: str
    #: Seats kept for invited players (a rematch's), by seat number: the player id, or null; empty
    #: when nobody was invited. Only that player may take a kept seat (`POST /seats`), or decline it
    #: (`POST /decline`), which opens it to anyone.
    invited: list[str | None]
    #: The display names of the game's creator, of the players in `seats` and of those `invited`, by
    #: player id.
    names: dict[str, str]
    #: The number of seats.
    players: int
    #: Listed in the lobby and open to spectators. A private game is open only to its creator and
    #: players; its id is the invitation to take a seat.
    public: bool
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last.
    rated: bool
    #: Once a rated game is over and counted: what it did to each seat's rating; null before
    #: (`ratings`: `pending`), and for an unrated game.
    rating_changes: list[RatingChange] | None
    #: What the game does to its seats' ratings: `none` (an unrated game, or one over without a
    #: result, which ratings leave out); `pending` (a rated game that finished: its rating changes
    #: are counted a moment after it ends, then `GET /v1/games/{game_id}` lists them in
    #: `rating_changes`); `counted` (`rating_changes` holds them).
    ratings: Literal["none", "pending", "counted"]
    #: The rematch one of its players asked for once it was over (`POST /rematch`); null if none.
    rematch: str | None
    #: The game this one is a rematch of; null if none.
    rematch_of: str | None
    #: How the game is played.
    ruleset: RuleSet
    #: Who controls each seat, by seat number: a human player or a bot; null: open for a human
    #: player to take.
    seats: list[SeatHolder | None]
    #: While the game runs, watchers (anyone without a seat) see it this many events behind the
    #: table, as broadcasts of card games are delayed, so that nobody watching can tell a player the
    #: cards as they fall; 0: live. The seated players see their game live, and once it is over
    #: everyone sees all of it.
    spectator_delay: int
    #: `lobby` before the deal (seats may be taken), `playing` or `finished`.
    status: GameStatus
    #: What happens when a human seat's decision is not taken in time (its turn clock runs out, or,
    #: with or without a clock, the player's bot endpoint gives no legal answer by its deadline): a
    #: bot of `bot_level` takes the decision; after `hand_over_after` consecutive timeouts the seat
    #: is the bot's for the rest of the game. A bot of `bot_level` also plays the seat of a player
    #: who resigns.
    timeout_policy: TimeoutPolicy
    #: Seconds a human seat has for each decision; null: no clock.
    turn_clock: int | None
    #: When its latest event was recorded.
    updated_at: datetime
    #: The game's version: the number of events in its log.
    version: int


class GameView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    What one viewer may know of the game (§15). A seat sees its own hand; a spectator sees none.
    Everything else is the same for every viewer. Card ids are `<type>#<n>`, e.g. `toy_train#8`.
    """
    #: Actions the active seat has taken this turn: up to 1, or 2 with two_actions (§13.2).
    actions_taken: int
    #: The seat whose turn it is, also while other seats answer during that turn.
    active: int
    #: The seat whose decision the game waits for, as a list of one; empty when none.
    awaiting: list[int]
    #: The discard pile, bottom first: the last card is the top, the only usable one.
    discard_pile: list[str]
    #: A drafted set waiting for its challenge window, or for the challenge on it, to end (§14.3);
    #: null otherwise.
    draft: DraftInProgress | None
    #: The three draft piles, by pile number from 0, in 2- and 3-player games of en_2022 and
    #: de_2024; empty otherwise. With 3 players pile i lies between seat i and seat i + 1 mod 3
    #: (§14.1).
    draft_piles: list[PileView]
    #: Number of cards left in the draw pile.
    draw_count: int
    #: Card ids in the viewer's hand; null for a spectator, and before the first deal.
    hand: list[str] | None
    #: Action cards used up this round, played from hand or revealed on a draft pile, in the order
    #: they left play (§13.4, §14.6).
    out_of_play: list[str]
    #: The decision the game waits for; its `type` says which (§6).
    pending: Pending
    #: The edition's cards left out of this round's deck: the 2-player reduction and advanced cards
    #: whose options are off (§5.1).
    removed: list[str]
    #: The current round, from 1; 0 before the first deal.
    round_no: int
    #: One list per finished round, oldest first: each seat's score in dollars (§11).
    round_scores: list[list[int]]
    #: The rules the game is played with.
    ruleset: RuleSet
    #: Every seat, in seat order.
    seats: list[SeatView]
    #: playing, or finished once the game is over.
    status: Literal["playing", "finished"]
    #: The seat this view is for; null for a spectator.
    viewer: int | None
    #: Empty until the game is over, then the winning seats: several on a shared win.
    winners: list[int]


class Health(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Liveness (`GET /v1/healthz`) or readiness (`GET /v1/readyz`, a 503 when not ready)."""
    #: Readiness only: each check by name (`database`; `redis` when configured), with `ok` or why
    #: not.
    checks: dict[str, str]
    #: `ok`, or `unavailable` when a readiness check fails.
    status: Literal["ok", "unavailable"]


class HistoryLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One line of `GET /v1/games/{game_id}/history` (NDJSON): a stored event, unredacted."""
    #: Who caused it: `player:<player id>`, `bot:<level>` (a bot seat's move), `webhook:<player id>`
    #: (the player's bot endpoint), or `timeout:<seat>` (that seat's turn clock ran out).
    actor: str | None
    #: On the first event of a command sent with an id: a client's is `player:<player
    #: id>:<Idempotency-Key>`, a bot move's or an expired clock's
    #: `due:<version>:<bot_turn|deadline>`, a bot endpoint's `webhook:<version>`; null otherwise.
    command_id: str | None
    #: The event itself, unredacted, with its `type`: the stored bytes, compact UTF-8 JSON, as they
    #: are hashed. Of the event schema its `type` names, at `schema_version` (an older version may
    #: differ from today's schema).
    data: dict[str, Any]
    #: Hex SHA-256 of: the previous event's `hash` (64 zeros before the first event) as ASCII, the
    #: compact JSON array `[game_id, version, type, schema_version, visibility, command_id, actor]`,
    #: a newline, and `data` exactly as it appears in this line. `GET /verify` checks the chain; so
    #: can you, from this log alone.
    hash: str
    #: When the event was stored; `hash` leaves it out.
    recorded_at: datetime
    #: The version of this event type's `data` layout.
    schema_version: int
    #: The event's type, as `data` names it.
    type: str
    #: The event's version: its place in the game's log, from 1.
    version: int
    #: Who sees it in full: `public` (everyone), a seat number (that seat alone) or `server` (no
    #: player); the others see it redacted.
    visibility: str


class HistoryPage(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A page of `GET /v1/games/{game_id}/history/page`: the history's lines as JSON."""
    #: The game's id.
    game_id: str
    #: The lines after `?after=`, oldest first.
    lines: list[HistoryLine]
    #: Pass it as `?after=` for the next page: the last version on this page, or `after` itself when
    #: the page is empty (then there are no more).
    next_after: int
    #: The server's signed receipt for the whole log, at `version` (docs/receipts.md). Null only
    #: when the operator turned receipts off.
    receipt: Receipt | None
    #: Hex: the game's receipt salt. A receipt's `chain_seal` is HMAC-SHA-256 keyed with it of the
    #: line's `hash` at the receipt's version, so with it any receipt of this game can be checked
    #: against these lines.
    receipt_salt: str
    #: The game's version: the number of events in its log.
    version: int


class HumanSeat(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="kind", tag="human"):
    """A seat held by a human player."""
    #: The id of the player who holds the seat.
    player_id: str


class ImproveSet(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="improve_set"):
    """Turn action with improve_set: add an asset from your hand to your top set (§7.5)."""
    #: Id of an asset in your hand of your top set's type; never a wild.
    card: str


class InvitationDeclined(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="invitation_declined"):
    """Before the start, an invited player declined the seat kept for them; it is open."""
    #: The player who declined.
    player_id: str
    #: The seat that was kept for them.
    seat: int


class JoinSeat(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The optional body of `POST /v1/games/{game_id}/seats`: the seat to take."""
    #: Your seat's contribution to the deal's randomness (rules version 4, docs/fair-shuffle.md §7):
    #: 0 to 64 bytes, standard base64 in JSON, best from a CSPRNG (the web client and the SDK send
    #: 32 random bytes by default). Secret from everyone else until the deal; then `game_started`
    #: names every seat's. Sent again before the deal, it replaces the last one; none sent: the seat
    #: contributes an empty value, and `game_started` says so.
    client_seed: str | UnsetType | None = UNSET
    #: The seat to take; null: the lowest open seat.
    seat: int | UnsetType | None = UNSET


class Leaderboard(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A page of `GET /v1/leaderboard`."""
    #: Best first.
    entries: list[LeaderboardEntry]
    #: The family of games ranked.
    family: Literal["2p", "3-6p"]
    #: Pass it as `?offset=` for the next page; null on the last.
    next_offset: int | None


class LeaderboardEntry(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One place on the leaderboard."""
    #: A bot: a built-in level, or a player's bot account.
    bot: bool
    #: `player:<player id>` or `bot:<level>`.
    identity: str
    #: The player's display name, or the bot level's.
    name: str
    #: 1 for the best rating.
    place: int
    #: Its rating in this family.
    rating: RatingOut


class LegalCommands(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your legal commands now, as `GET /v1/games/{game_id}/legal-commands` returns them."""
    #: Each ready to post to `POST /v1/games/{game_id}/commands` as it is; empty while the decision
    #: is another seat's or the game is not being played.
    commands: list[Command]
    #: The game's id.
    game_id: str
    #: Your seat.
    seat: int
    #: The game version the commands are legal at.
    version: int


class LobbyExpired(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="lobby_expired"):
    """The game was never started and its lobby expired: it is over without a deal."""
    #: Why, in words, e.g. `not started within 24 hours`.
    reason: str


class MoveDirectionChosen(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="move_direction_chosen"):
    """
    A seat chose the direction for the other affected seat's stack under a revealed Move (§14.6);
    the choices apply together once the last chooser has chosen.
    """
    #: top_to_bottom: the top set goes to the bottom; bottom_to_top: the bottom set goes to the top.
    direction: Direction
    #: The seat that chose.
    seat: int
    #: The other affected seat, whose stack will move.
    target_seat: int


class MovePlayed(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="move_played"):
    """
    The active seat played a Move from its hand on a stack of two or more sets, its own or another
    seat's (§7.7). The Move goes out of play; it cannot be answered.
    """
    #: The Move card's id.
    card: str
    #: top_to_bottom: the top set goes to the bottom; bottom_to_top: the bottom set goes to the top.
    direction: Direction
    #: The seat that played the Move: the active seat.
    seat: int
    #: The seat whose stack was moved; may be the player's own.
    target_seat: int


class NewChallenge(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The body of `POST /v1/challenges`: a game offered to one player, or to anyone."""
    #: The levels of the bots in the other seats: a challenge seats two players, so a rule set of n
    #: seats needs n − 2 bots.
    bots: list[BotLevel] | UnsetType = UNSET
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last. Default: `false`.
    rated: bool | UnsetType = UNSET
    #: How the game is played.
    ruleset: RuleSet
    #: Your seat; the one who accepts takes the lowest other. Default: `0`.
    seat: int | UnsetType = UNSET
    #: The challenged player's id; null: an open challenge anyone may accept.
    to: str | UnsetType | None = UNSET
    #: Seconds a human seat has for each decision, 1 to 86,400; null: no clock.
    turn_clock: int | UnsetType | None = UNSET


class NewGame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    The body of `POST /v1/games`. Seats not given to the creator (`join`) or to a bot stay open for
    human players.
    """
    #: Bots to seat; with the creator they must fit in the rule set's seats.
    bots: list[BotSpec] | UnsetType = UNSET
    #: With `join`: Your seat's contribution to the deal's randomness (rules version 4,
    #: docs/fair-shuffle.md §7): 0 to 64 bytes, standard base64 in JSON, best from a CSPRNG (the web
    #: client and the SDK send 32 random bytes by default). Secret from everyone else until the
    #: deal; then `game_started` names every seat's. Sent again before the deal, it replaces the
    #: last one; none sent: the seat contributes an empty value, and `game_started` says so.
    client_seed: str | UnsetType | None = UNSET
    #: The creator takes a seat: the lowest one not given to a bot by number. Default: `true`.
    join: bool | UnsetType = UNSET
    #: Listed in the lobby and open to spectators. A private game is open only to its creator and
    #: players; its id is the invitation to take a seat. Default: `true`.
    public: bool | UnsetType = UNSET
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last. Default: `false`.
    rated: bool | UnsetType = UNSET
    #: How the game is played.
    ruleset: RuleSet
    #: While the game runs, watchers (anyone without a seat) see it this many events behind the
    #: table, as broadcasts of card games are delayed, so that nobody watching can tell a player the
    #: cards as they fall; 0: live. The seated players see their game live, and once it is over
    #: everyone sees all of it. 0 to 1,000. Default: `0`.
    spectator_delay: int | UnsetType = UNSET
    #: What happens when a human seat's decision is not taken in time, and who plays a resigned
    #: seat.
    timeout_policy: NewTimeoutPolicy | UnsetType = UNSET
    #: Seconds a human seat has for each decision, 1 to 86,400; null: no clock.
    turn_clock: int | UnsetType | None = UNSET


class NewPlayer(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    The optional body of `POST /v1/players`: the new player's display name, and whether it is a bot
    account.
    """
    #: A bot account in the standing arena: when the operator runs one (`CYA_BOT_ARENA_PLAYERS`), it
    #: is paired continuously in rated games against the arena's other bots. `true` makes the player
    #: a bot account. Default: `false`.
    arena: bool | UnsetType = UNSET
    #: A bot account, played by a program (as Lichess's BOT accounts): shown in player views and the
    #: leaderboard, which can list people, bots or both. Set at creation, for good. Default:
    #: `false`.
    bot: bool | UnsetType = UNSET
    #: Display name, shown in `GET /v1/players/me` and in the summaries of your games: 1 to 64
    #: characters, not all blank, no control characters or line breaks. Default: `"player"`.
    name: str | UnsetType = UNSET


class NewSeek(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    The body of `POST /v1/matchmaking`: the kind of game you will play, and how far from your rating
    your opponents may be.
    """
    #: The edition.
    edition: Edition | UnsetType = UNSET
    #: How the game ends (§12): only seekers of the same end are paired.
    end_mode: EndMode | UnsetType = UNSET
    #: Seats, 2 to 6. Default: `2`.
    players: int | UnsetType = UNSET
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last. Default: `false`.
    rated: bool | UnsetType = UNSET
    #: ± rating (ordinal) you accept at first; it widens by the server's `CYA_MATCH_WIDEN_PER_S`
    #: each second you wait. Default: `5.0`.
    rating_range: float | UnsetType = UNSET


class NewTimeoutPolicy(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    What happens when a human seat's decision is not taken in time (its turn clock runs out, or,
    with or without a clock, the player's bot endpoint gives no legal answer by its deadline): a bot
    of `bot_level` takes the decision; after `hand_over_after` consecutive timeouts the seat is the
    bot's for the rest of the game. A bot of `bot_level` also plays the seat of a player who
    resigns.
    """
    #: How the bot that takes expired decisions, and the seat of a player who resigns, plays:
    #: `random`, `greedy`, `expert` or `ismcts`. Default: `"random"`.
    bot_level: BotLevel | UnsetType = UNSET
    #: Consecutive timeouts after which the seat is handed to the bot for good, at least 1; null:
    #: never. A decision the player takes themselves starts the count again. Default: `3`.
    hand_over_after: int | UnsetType | None = UNSET


class NewTournament(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The body of `POST /v1/tournaments`."""
    #: Duplicate: how many deals. Default: `1`.
    deals: int | UnsetType = UNSET
    #: Who plays: players (`{"kind": "player", "player_id": …}`, a player with a webhook bot
    #: included) and built-in bots (`{"kind": "bot", "level": "greedy"}`; a level may enter many
    #: times).
    entrants: list[PlayerEntrant | BotEntrant]
    #: `round_robin` (every set of table-size entrants meets once), `swiss` (rounds paired on the
    #: standings so far) or `duplicate` (each deal played at every seat rotation by every group of
    #: entrants, so results compare on the same cards).
    format: Literal["round_robin", "swiss", "duplicate"]
    #: The tournament's name. Default: `"tournament"`.
    name: str | UnsetType = UNSET
    #: Listed, and open to watchers with its games. Default: `true`.
    public: bool | UnsetType = UNSET
    #: Its games update ratings. Default: `false`.
    rated: bool | UnsetType = UNSET
    #: Swiss: how many rounds; null: ceil(log2(entrants)).
    rounds: int | UnsetType | None = UNSET
    #: How every game of the tournament is played.
    ruleset: RuleSet


class NewsChallenge(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge"):
    """
    A player challenges you: accept with `POST /v1/challenges/{challenge_id}/accept`, or decline
    with a reason.
    """
    #: The challenge's id.
    challenge_id: str
    #: The challenging player's id.
    challenger: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: Whether the game would be rated.
    rated: bool
    #: How the game would be played.
    ruleset: RuleSet
    #: Seconds a decision, or null: no clock.
    turn_clock: int | None


class NewsChallengeAccepted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge_accepted"):
    """A challenge you made or accepted became a game (both sides hear it)."""
    #: The challenge's id.
    challenge_id: str
    #: The game it became: already dealt.
    game_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str


class NewsChallengeDeclined(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="challenge_declined"):
    """The player you challenged declined."""
    #: The challenge's id.
    challenge_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: Why, in the decliner's words.
    reason: str | None


class NewsGameFinished(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_finished"):
    """
    A game you sat in is over: finished with a result, or ended without one (`status` `abandoned` or
    `expired`, `reason` says why; `winners` is then empty).
    """
    #: The game's id.
    game_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: What the game does to its seats' ratings: `none` (an unrated game, or one over without a
    #: result, which ratings leave out); `pending` (a rated game that finished: its rating changes
    #: are counted a moment after it ends, then `GET /v1/games/{game_id}` lists them in
    #: `rating_changes`); `counted` (`rating_changes` holds them). Here `pending` or `none`: the
    #: news is told before the count.
    ratings: Literal["none", "pending", "counted"]
    #: Why it ended without a result, in words (e.g. `no human acted for 7 days`); null when it
    #: finished.
    reason: str | None
    #: Your seat.
    seat: int
    #: How it ended: `finished` (played to its end), `abandoned` (a game without a clock that waited
    #: on a human too long) or `expired` (a lobby never started in time).
    status: GameStatus
    #: Each seat's total, by seat.
    totals: list[int]
    #: The game's version the news is as of.
    version: int
    #: The winning seats (more than one: a shared win).
    winners: list[int]


class NewsGameStarted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="game_started"):
    """A game you sit in was dealt."""
    #: The game's id.
    game_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: Your seat.
    seat: int
    #: The game's version the news is as of.
    version: int


class NewsMatched(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="matched"):
    """A seek of yours was matched: its game is dealt."""
    #: The game it became.
    game_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: The seek's id.
    seek_id: str


class NewsSeated(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="seated"):
    """
    You hold a seat in a game that has not started: you took it, or its creator gave it to you. Told
    again whenever its seats change (another player sits down or leaves), so a creator waiting for a
    full table hears of each seat taken.
    """
    #: The game's id.
    game_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: Your seat.
    seat: int
    #: The game's version the news is as of.
    version: int


class NewsYourTurn(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="your_turn"):
    """A game waits for your decision; `turn` holds all you need to make it."""
    #: The game's id.
    game_id: str
    #: Resume after this news with `Last-Event-ID` (SSE) or `?after=` (NDJSON).
    id: str
    #: Your seat.
    seat: int
    #: Your turn, as `GET /turn` answers it.
    turn: Turn
    #: The game's version the news is as of.
    version: int


class NotStarted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="not_started"):
    """
    No round is being played: the game has started but its first round is not dealt yet, or a round
    has ended and the next is not dealt yet. Only GET /state at a version in the middle of a command
    shows it, never GET /view.
    """


class PassDraft(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="pass_draft"):
    """
    The eligible opponent lets the drafter keep a drafted set unchallenged (§14.3). A seat that
    cannot challenge passes automatically (§7.9).
    """


class PileCard(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A card and the draft pile it lies on (§14)."""
    #: The card's id, e.g. `toy_train#8`.
    card: str
    #: The draft pile's number, 0 to 2 (§14.1).
    pile: int


class PileCardRevealed(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="pile_card_revealed"):
    """
    A draft pile's next card was turned face up: after a draft from that pile was resolved (§17
    A50), or after its revealed action card was dealt with. An action card revealed this way takes
    effect next (§14.6).
    """
    #: The revealed card's id.
    card: str
    #: The draft pile's number, 0 to 2.
    pile: int


class PileView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One draft pile as every viewer sees it: its face-up top card and its size (§14, §15)."""
    #: Number of cards in the pile, face-down ones included.
    count: int
    #: Id of the face-up top card. null when the pile is empty, or while its top card is face down:
    #: after a draft from the pile, until the draft is resolved (§17 A50).
    top: str | None


class Play(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Cards one seat put into a challenge: the opening play or one answer (§8)."""
    #: The card ids played: one card, or two for a double (§8.2).
    cards: list[str]
    #: The seat that played the cards.
    seat: int


class PlayMove(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="play_move"):
    """
    Turn action with action_cards: move a stack's top set to its bottom, or its bottom set to its
    top; it cannot be answered (§7.7).
    """
    #: Id of a Move card in your hand.
    card: str
    #: top_to_bottom: the top set goes to the bottom. bottom_to_top: the reverse.
    direction: Direction
    #: Seat number of any seat with at least two sets, your own included (§17 A35).
    target_seat: int


class PlaySwap(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="play_swap"):
    """
    Turn action with action_cards: exchange your top set with another seat's top set; it cannot be
    answered (§7.6).
    """
    #: Id of a Swap card in your hand.
    card: str
    #: Seat number of another seat with at least one set; you need one too. Its bottom set is not
    #: protected (§17 A34).
    target_seat: int


class PlayerCreated(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A new player and its API key, as `POST /v1/players` returns it."""
    #: Send it as `Authorization: Bearer <key>`. Shown only this once: the server keeps only its
    #: SHA-256.
    api_key: str
    #: A bot account in the standing arena: when the operator runs one (`CYA_BOT_ARENA_PLAYERS`), it
    #: is paired continuously in rated games against the arena's other bots. `true` makes the player
    #: a bot account.
    arena: bool
    #: A bot account, played by a program (as Lichess's BOT accounts): shown in player views and the
    #: leaderboard, which can list people, bots or both. Set at creation, for good.
    bot: bool
    #: Display name.
    name: str
    #: The player's id; a game names its creator and players by it.
    player_id: str


class PlayerEntrant(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="kind", tag="player"):
    """A player (a person, or a bot that plays through the API or a webhook)."""
    #: The player's id.
    player_id: str


class PlayerOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    A player, as `GET /v1/players/me` (and, for anyone, `GET /v1/players/{player_id}`) returns it.
    """
    #: A bot account in the standing arena: when the operator runs one (`CYA_BOT_ARENA_PLAYERS`), it
    #: is paired continuously in rated games against the arena's other bots. `true` makes the player
    #: a bot account.
    arena: bool
    #: A bot account, played by a program (as Lichess's BOT accounts): shown in player views and the
    #: leaderboard, which can list people, bots or both. Set at creation, for good.
    bot: bool
    #: When the player was created.
    created_at: datetime
    #: Display name.
    name: str
    #: The player's id; a game names its creator and players by it.
    player_id: str
    #: Its ratings, one per family it played rated games in.
    ratings: list[RatingOut]


class ProblemBody(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    Every error answer (`application/problem+json`, RFC 9457); `code` is stable for programs,
    `detail` is for people. A field that does not apply is left out.
    """
    #: What went wrong, for programs: stable, e.g. `stale_version`.
    code: str
    #: With 409 `stale_version`: the game's current version.
    current_version: int | UnsetType | None = UNSET
    #: What went wrong this time, for people; its wording may change.
    detail: str
    #: With 400 `malformed_request`, when a parameter or the body failed validation: one object per
    #: failure, with `message` and, where known, `key` (the field), `source` (such as `body`,
    #: `query` or `header`) and, for a value outside a fixed set, `allowed` (the values the field
    #: takes).
    errors: list[dict[str, Any]] | UnsetType | None = UNSET
    #: With 422 `rule_violation`: the commands you may send now, as `GET /legal-commands` lists them
    #: (always empty outside `POST /commands`).
    legal_commands: list[Command] | UnsetType | None = UNSET
    #: With 422 `rule_violation`: the engine's code for the rule broken.
    rule: str | UnsetType | None = UNSET
    #: The HTTP status code.
    status: int
    #: The kind of problem in words, made from `code`.
    title: str
    #: A URI naming the kind of problem; it ends with `code`, hyphenated.
    type: str


class PublicKey(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A receipt key, as `GET /v1/receipt-keys` lists it."""
    #: `Ed25519`.
    algorithm: str
    #: When the key was made, if known.
    created_at: datetime | None
    #: The key's id, as receipts name it: the first 16 hex digits of the SHA-256 of the raw public
    #: key.
    key_id: str
    #: Hex: the raw 32-byte Ed25519 public key.
    public_key: str
    #: When the key stopped signing: it is listed to verify the receipts it signed before. Null for
    #: the key that signs now.
    retired_at: datetime | None


class RatingChange(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What a finished rated game did to one seat's rating."""
    #: The rating (ordinal) after it.
    after: float
    #: The rating (ordinal) before the game.
    before: float
    #: Which games: `2p` (2-player games) or `3-6p` (3 to 6 players), rated apart.
    family: Literal["2p", "3-6p"]
    #: Who was rated: `player:<player id>` (the player who held the seat at the deal, also one who
    #: gave it up) or `bot:<level>`.
    identity: str
    #: The seat's place in the game, 1 the best (a shared place shares a rank; a seat given up is
    #: last).
    rank: int
    #: The seat.
    seat: int


class RatingOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A rating in one family of games (OpenSkill, Plackett–Luce)."""
    #: Which games: `2p` (2-player games) or `3-6p` (3 to 6 players), rated apart.
    family: Literal["2p", "3-6p"]
    #: Rated games counted.
    games: int
    #: The skill estimate's mean (25 at the start).
    mu: float
    #: The rating shown and ranked by: OpenSkill's ordinal, mu − 3 sigma (a conservative estimate; a
    #: new player starts at 0).
    rating: float
    #: Its uncertainty (25/3 at the start; shrinks with games).
    sigma: float


class ReactionBody(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A preset reaction to send to the table."""
    #: One of the preset reactions (no free text, so nothing to moderate): `good_game`,
    #: `well_played`, `nice_steal` or `oops`. Clients show them in the reader's language.
    reaction: Literal["good_game", "well_played", "nice_steal", "oops"]


class ReactionSent(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="reaction_sent"):
    """
    A seated player sent a preset reaction to the table (and its watchers). It changes nothing in
    the game: no card, no turn, no clock.
    """
    #: One of the preset reactions (no free text, so nothing to moderate): `good_game`,
    #: `well_played`, `nice_steal` or `oops`. Clients show them in the reader's language.
    reaction: Literal["good_game", "well_played", "nice_steal", "oops"]
    #: The seat that sent it, 0-based.
    seat: int


class Receipt(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    The server's signed word on a game's log at one version (docs/receipts.md): keep it, and a
    history that disagrees with it later is evidence against the server.
    """
    #: Hex HMAC-SHA-256, keyed with the game's `receipt_salt` (published with its history), of the
    #: log's hash chain at `version` (the history line's `hash`) as ASCII.
    chain_seal: str
    #: The game's id.
    game_id: str
    #: The signing key's id, as `GET /v1/receipt-keys` lists it.
    key_id: str
    #: Hex SHA-256 of the game's `receipt_salt` (the same for every receipt of the game): it binds
    #: the salt the history publishes to this receipt.
    salt_commitment: str
    #: Hex Ed25519 signature of `cya-receipt-v1\n` + game_id + `\n` + version + `\n` +
    #: salt_commitment + `\n` + chain_seal + `\n` + key_id (UTF-8, version in decimal).
    signature: str
    #: The version the receipt is for: the number of events in the log it covers.
    version: int


class ReceiptKeys(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    The keys that verify this service's receipts: the one that signs now, and the retired ones,
    still listed so the receipts they signed keep verifying.
    """
    #: Every key, the signing one first.
    keys: list[PublicKey]
    #: The domain-separation prefix of the signed message (docs/receipts.md).
    message_prefix: str
    #: The id of the key that signs new receipts.
    signing_key_id: str


class Redelivery(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A message owed again."""
    #: Its game.
    game_id: str
    #: The message's id.
    message_id: str


class RematchOffered(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="rematch_offered"):
    """
    One of the game's players asked for a rematch: a new game with the same rules, the seats
    rotated, the other players invited to their new seats.
    """
    #: The rematch's game id.
    game_id: str
    #: The player who asked for it.
    player_id: str


class Respond(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="respond"):
    """Answer a challenge that awaits you with exactly the required play (§8.4)."""
    #: Card ids from your hand. required 1: one matching card (an asset of the set's type or a
    #: wild); a Penny Jar asks for a double back. required 2: two matching cards that are not Penny
    #: Jars, or one Penny Jar (§8.2).
    cards: list[str]


class RevealedActionDiscarded(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="revealed_action_discarded"):
    """
    A revealed action card with nothing to act on went out of play (§17 A31): a Move when neither
    affected stack has two sets, or a Swap that can neither apply nor go back into its pile. The
    pile's next card, if any, is turned up.
    """
    #: The action card's id.
    card: str
    #: The draft pile the card was revealed on.
    pile: int


class RevealedActionReturned(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="revealed_action_returned"):
    """
    A revealed Swap that could not apply, because an affected seat has no set, went back face down
    into its pile, and the pile's next card is turned up (§14.6, §17 A31, A32).
    """
    #: The Swap card's id.
    card: str
    #: The draft pile the Swap was revealed on.
    pile: int
    #: Where the card went, as an index in the pile, 0 being the top. Null in events pages, streams
    #: and command results; `GET /history` has it.
    position: int | None


class RevealedMoveApplied(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="revealed_move_applied"):
    """
    The choices for a revealed Move were applied (§14.6). The Move goes out of play and the pile's
    next card, if any, is turned up.
    """
    #: The Move card's id.
    card: str
    #: The moves applied, in order.
    moves: list[StackMove]
    #: The draft pile the Move was revealed on.
    pile: int


class RevealedMoveAwaitingChoices(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="revealed_move_awaiting_choices"):
    """
    A Move was revealed on a draft pile: each chooser in turn picks the direction for the other
    affected seat's stack (§14.6).
    """
    #: The Move card's id.
    card: str
    #: The seats that must choose, in order, the active seat first. A seat does not choose when the
    #: other affected seat's stack has fewer than two sets.
    choosers: list[int]
    #: The draft pile the Move was revealed on.
    pile: int


class RevealedSwapApplied(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="revealed_swap_applied"):
    """
    A Swap revealed on a draft pile took effect: the two affected seats exchanged their top sets
    (§14.6). The Swap goes out of play and the pile's next card, if any, is turned up.
    """
    #: The Swap card's id.
    card: str
    #: The draft pile the Swap was revealed on.
    pile: int
    #: The two affected seats, the active seat first (§14.6).
    seats: list[int]


class RoundEnded(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="round_ended"):
    """
    The round is over: the draw pile and every hand are empty (§10). Each seat scores its stack
    (§11); the next round is dealt or game_ended follows.
    """
    #: The round's number, from 1.
    round_no: int
    #: The seat with the unique highest round score; null when it is shared. Only
    #: first_to_2_round_wins decides the game by round wins (§12, §17 A23).
    round_winner: int | None
    #: Each seat's round score in dollars, by seat number: the value of its stack (§11).
    scores: list[int]
    #: The round's seed, now revealed (base64): its SHA-256 is the seed_sha256 of the round's
    #: round_started event.
    seed: str
    #: Each seat's cumulative score in dollars after this round, by seat number (§12).
    totals: list[int]


class RoundStarted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="round_started"):
    """
    A round was dealt (§5.3): the public facts of the deal and the viewer's own hand; other hands,
    the draw pile and the draft piles' face-down cards stay hidden (§15). Its first_player takes the
    round's first turn: no turn_started comes before it.
    """
    #: The discard pile after the deal: the one card turned face up from the deck (§5.3).
    discard_pile: list[str]
    #: Number of cards in each draft pile, by pile number; empty without draft piles.
    draft_counts: list[int]
    #: The draft piles' full contents. Null in events pages, streams and command results; `GET
    #: /history` has them.
    draft_piles: list[list[str]] | None
    #: The face-up top card of each draft pile, by pile number; empty in games without draft piles
    #: (§14.1).
    draft_tops: list[str | None]
    #: Number of cards left in the draw pile after the deal.
    draw_count: int
    #: The draw pile's full contents. Null in events pages, streams and command results; `GET
    #: /history` has them.
    draw_pile: list[str] | None
    #: The seat that takes the round's first turn (§5.4).
    first_player: int
    #: Number of cards dealt to each seat, by seat number.
    hand_counts: list[int]
    #: Cards dealt to each seat, and the size hands are refilled to (§5.2, §9).
    hand_size: int
    #: Each seat's dealt hand, by seat number: the viewer's own in full, every other seat's as an
    #: empty list (all of them empty for a spectator; all full in history).
    hands: list[list[str]]
    #: Action cards turned up on the draft piles at setup and put back face down into the middle of
    #: their pile, in order (§14.5).
    pushed_back: list[PileCard]
    #: The edition's cards left out of this round's deck: the 2-player reduction and advanced cards
    #: whose options are off (§5.1).
    removed: list[str]
    #: The round's number, from 1.
    round_no: int
    #: SHA-256 (hex) of the round's secret seed, published before any card is seen; round_ended
    #: reveals the seed, so anyone can check the deal.
    seed_sha256: str


class RuleSet(msgspec.Struct, kw_only=True, omit_defaults=True):
    """How a game is played (RULES §3). Seats are numbered 0 to players − 1, clockwise."""
    #: Advanced rules, each on its own; not for classic_2011 (§13).
    advanced: AdvancedOptions | UnsetType = UNSET
    #: Challenging a drafted set needs a set of your own (§14.3, §17 A28). Default: `true`.
    draft_challenge_requires_own_set: bool | UnsetType = UNSET
    #: A drafted set that would be the drafter's first set is safe (§17 A28). Default: `false`.
    draft_set_first_set_protected: bool | UnsetType = UNSET
    #: Rulebook and deck: classic_2011, en_2022 or de_2024 (§1).
    edition: Edition | UnsetType = UNSET
    #: When the game ends (§12).
    end_mode: EndMode | UnsetType = UNSET
    #: First player of round 1: 'random' (from the round seed) or a seat (§5.4). Default:
    #: `"random"`.
    first_player: Literal["random"] | int | UnsetType = UNSET
    #: Later rounds start left of the last first player, or with the poorest (§5.4).
    later_rounds_start: LaterRoundsStart | UnsetType = UNSET
    #: Number of seats, 2–6.
    players: int
    #: Views and events show every card of every set. Off: each set's type, count and top card only,
    #: and a formed pair's other card stays with the seat that formed it until the round is scored
    #: (§15, §17 A45). Absent: the edition's default, recorded when the game is created: off for
    #: classic_2011, whose book says to keep a wild in a set secret; on for en_2022 and de_2024.
    #: Before rules version 3 the events named every card either way (§18).
    public_set_composition: bool | UnsetType = UNSET
    #: The rules version the game was created under, which it keeps for good: the server sets it to
    #: the current version when a game is created, and a value sent in `POST /v1/games` is ignored.
    #: Absent from a game recorded before versions were, which plays under version 1. `GET
    #: /v1/rulesets` lists the versions and what changed in each (§18). Default: `1`.
    rules_version: int | UnsetType = UNSET
    #: A top total shared when the game would end: play another round, or share the win (§12.5). It
    #: never applies to first_to_2_round_wins, where a tied round gives no round win and one seat
    #: alone can reach two.
    tie_policy: TiePolicy | UnsetType = UNSET


class RulesVersion(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One version of the rules engine: what changed in play from the version before."""
    #: What plays differently from the version before, with the rule.
    changes: list[str]
    #: The version, as a rule set's `rules_version` names it.
    version: int


class SeatHandedToBot(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="seat_handed_to_bot"):
    """
    After too many consecutive timeouts (the game's timeout_policy), a bot plays the seat for the
    rest of the game. It follows the decision_timed_out that set it off.
    """
    #: How the bot that now plays the seat plays: `random`, `greedy`, `expert` or `ismcts`.
    level: BotLevel
    #: The id of the player who held the seat.
    player_id: str
    #: Why, in words, e.g. `3 consecutive timeouts (the game hands a seat over after 3)`.
    reason: str
    #: The seat handed over.
    seat: int


class SeatLeft(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="seat_left"):
    """Before the game started, a human player left their seat; it is open again."""
    #: The id of the player who left it.
    player_id: str
    #: The seat left, 0-based.
    seat: int


class SeatResigned(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="seat_resigned"):
    """A player gave up a running game: a bot of `bot_level` plays the seat to the end."""
    #: How the bot plays: `random` (any legal move), `greedy` (the legal move its heuristics score
    #: best), `expert` (a hand-written player that counts cards) or `ismcts` (a search over the
    #: cards it cannot see: the strongest). GET /v1/rulesets describes each.
    bot_level: BotLevel
    #: The id of the player who resigned.
    player_id: str
    #: The seat given up.
    seat: int


class SeatSeed(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One seat's client seed, as the deal took it."""
    #: The seat, 0-based.
    seat: int
    #: Its client seed, hex (empty: none).
    seed: str
    #: player, bot (from the master seed) or none.
    source: Literal["player", "bot", "none"]


class SeatTaken(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="seat_taken"):
    """
    Before the game started, a seat was filled: a human player took it, or the creator added a bot.
    """
    #: The client seed its player sent with it (rules version 4): to that seat only; null to
    #: everyone else, until game_started names it.
    client_seed: str | UnsetType | None = UNSET
    #: Who now controls the seat.
    controller: SeatHolder
    #: The seat taken, 0-based.
    seat: int


class SeatView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What every viewer sees of one seat: hand size, stack and scores; never its hand's cards."""
    #: Number of cards in the seat's hand; 0 before the first deal.
    hand_count: int
    #: Rounds this seat won with the unique highest round score; only first_to_2_round_wins decides
    #: the game by them (§12, §17 A53).
    round_wins: int
    #: The seat number, 0-based.
    seat: int
    #: The seat's sets, bottom first: the first is the bottom set, which can never be challenged;
    #: the last is the top set (§4, §7.3).
    stack: list[SetView]
    #: Dollar value of every card in the stack, its score if the round ended now (§11). null when
    #: the set's cards are: it would tell a wild from an asset.
    stack_value: int | None
    #: Cumulative score in dollars over the rounds finished so far (§11, §12).
    total: int


class SeedsReport(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The seeds of the deal, as `GET /verify` checked them (rules version 4)."""
    #: Every seat's client seed as `game_started` names it, checked against what each seat sent
    #: before the deal; null when the deal takes none (an older rules version, a tournament's table)
    #: or the game has not started.
    client_seeds: list[SeatSeed] | None
    #: The master seed `game_started` dealt with hashes to `seed_sha256`.
    commitment_verified: bool
    #: The master seed's SHA-256 (hex) that `game_created` published; null for a game created before
    #: rules version 4, whose seed was drawn at the deal.
    seed_sha256: str | None


class SeekOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A seek as it stands."""
    #: When you sought.
    created_at: datetime
    #: The edition.
    edition: Edition
    #: How the game ends (§12).
    end_mode: EndMode
    #: The game it became, once matched.
    game_id: str | None
    #: The seeker.
    player_id: str
    #: Seats.
    players: int
    #: Once it is over, the game updates its players' ratings (OpenSkill, Plackett–Luce; each bot
    #: level is rated as a player of its own): `GET /v1/leaderboard`. A player who gave up a seat,
    #: by resigning or to the clock, is ranked last.
    rated: bool
    #: Your rating (ordinal) in the family when you sought.
    rating: float
    #: ± rating accepted at first.
    rating_range: float
    #: The seek's id: cancel with `DELETE /v1/matchmaking/{id}`.
    seek_id: str
    #: `waiting`, `matched` (with `game_id`) or `cancelled`.
    status: SeekStatus


class SetDrafted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="set_drafted"):
    """
    The active seat drafted a set: one card from its hand with one or more face-up draft pile tops
    (§14.2). The set is held aside until the eligible opponent passes or a challenge on it ends
    (§14.3).
    """
    #: The only seat that may challenge the drafted set out of turn (§14.3). null: nobody may, as
    #: the drafter's first set is protected by draft_set_first_set_protected (§17 A28), and the
    #: drafter keeps it at once.
    eligible: int | None
    #: The card the drafter played from its hand.
    hand_card: str
    #: The draft pile tops taken, in pile number order.
    pile_cards: list[PileCard]
    #: The seat that drafted: the active seat.
    seat: int
    #: The drafted set's asset type.
    set_type: str


class SetFormed(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="set_formed"):
    """
    The active seat formed a pair, from its hand or with the discard pile's top card; the new set
    goes on top of its stack (§7.1).
    """
    #: The two card ids of the pair; with source discard, the second is the card taken from the top
    #: of the discard pile.
    cards: list[str]
    #: The seat that formed the set: the active seat.
    seat: int
    #: true when the game keeps set composition hidden (public_set_composition off, rules version 3
    #: on, §17 A45): only the forming seat sees both cards; for everyone else `cards` lists only the
    #: face-up ones, the asset on top of the set and a card taken from the discard pile, and the
    #: other card stays secret until the round is scored. Default: `false`.
    secret: bool | UnsetType = UNSET
    #: The new set's asset type, e.g. `jewels`.
    set_type: str
    #: hand: both cards came from the hand; discard: one came from the discard pile.
    source: SetSource


class SetImproved(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="set_improved"):
    """The active seat added an asset from its hand to its top set (§7.5)."""
    #: The asset card added, of the top set's type.
    card: str
    #: The seat that improved its set: the active seat.
    seat: int


class SetView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One set in a seat's stack as every viewer sees it (§15, §17 A45)."""
    #: Every card id in the set, assets first, then wilds. null unless the rule set's
    #: public_set_composition is on, or (rules version 3 on) the game is over (§17 A45).
    cards: list[str] | None
    #: Number of cards in the set.
    count: int
    #: Id of the set's top card, always an asset of the set's type.
    top: str
    #: The set's asset type, e.g. `jewels`.
    type: str


class StackMove(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One stack's move under a revealed Move card (§14.6)."""
    #: `top_to_bottom`: its top set goes to the bottom; `bottom_to_top`: its bottom set comes to the
    #: top.
    direction: Direction
    #: The seat whose stack moves.
    seat: int


class Standing(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One entrant's place in the standings."""
    #: Duplicate only: `vs_field` deal by deal (a deal not yet complete counts what is).
    by_deal: list[float] | None
    #: The entrant's index in the tournament's `entrants`.
    entrant: int
    #: Finished games played (abandoned ones do not count).
    games: int
    #: `player:<player id>` or `bot:<level>`.
    identity: str
    #: 1 for the best; entrants level on every key share a place.
    place: int
    #: Points from every finished game (and byes).
    points: float
    #: Duplicate only: the entrant's totals minus the field's mean totals on the same deal and seat,
    #: summed; null in the other formats.
    vs_field: float | None


class StandingsOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """`GET /v1/tournaments/{id}/standings`."""
    #: Best first.
    standings: list[Standing]
    #: `running` or `finished`.
    status: str
    #: The tournament's id.
    tournament_id: str


class StateOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your view of a game at a past version, as `GET /v1/games/{game_id}/state` returns it."""
    #: The game's id.
    game_id: str
    #: Your seat; null: you watch as a spectator.
    seat: int | None
    #: The version asked for.
    version: int
    #: The game at that version as you may see it; null if it was not dealt yet.
    view: GameView | None


class SubscriptionIn(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Subscribe a URL to event types of your games."""
    #: What to hear of each game you sit in: `seated`, `game_started`, `your_turn` (with the whole
    #: turn inline), `game_finished`, and `events` (each command's events, redacted for your seat).
    event_types: list[Literal["seated", "game_started", "your_turn", "game_finished", "events"]]
    #: Where to POST: `http` or `https`, resolving to a public address (private, loopback and
    #: link-local addresses are refused unless the server allows them).
    url: str


class SubscriptionList(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your event webhook subscriptions."""
    #: Oldest first.
    subscriptions: list[SubscriptionOut]


class SubscriptionOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An event webhook subscription (its secret is shown only when made or rotated)."""
    #: When it was made.
    created_at: datetime
    #: Why it was disabled.
    disabled_reason: str | None
    #: False after sustained failure: enable it again with `POST …/enable`.
    enabled: bool
    #: The types it hears.
    event_types: list[Literal["seated", "game_started", "your_turn", "game_finished", "events"]]
    #: Consecutive failed attempts.
    failures: int
    #: The subscription's id.
    subscription_id: str
    #: Where messages are POSTed.
    url: str


class SubscriptionSecret(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A subscription with its new secret."""
    #: When it was made.
    created_at: datetime
    #: Why it was disabled.
    disabled_reason: str | None
    #: False after sustained failure: enable it again with `POST …/enable`.
    enabled: bool
    #: The types it hears.
    event_types: list[Literal["seated", "game_started", "your_turn", "game_finished", "events"]]
    #: Consecutive failed attempts.
    failures: int
    #: The signing secret (`whsec_…`), shown only in this answer: verify each delivery's
    #: `webhook-signature` with it (Standard Webhooks).
    secret: str
    #: The subscription's id.
    subscription_id: str
    #: Where messages are POSTed.
    url: str


class SwapPlayed(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="swap_played"):
    """
    The active seat played a Swap from its hand: its top set and the target seat's top set changed
    places (§7.6). The Swap goes out of play; it cannot be answered.
    """
    #: The Swap card's id.
    card: str
    #: The seat that played the Swap: the active seat.
    seat: int
    #: The seat whose top set was exchanged.
    target_seat: int


class TableOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One game of the tournament."""
    #: The index of the seed (in `seed_hashes`) its game is dealt from: the tables of one duplicate
    #: deal share it.
    deal: int
    #: Its game, once opened; null before.
    game_id: str | None
    #: How its game ended; null until then.
    result: TableResult | None
    #: Its round, 1-based (duplicate: its deal's number).
    round: int
    #: The entrant (index into `entrants`) in each seat.
    seats: list[int]
    #: The table's number, 0-based.
    table: int


class TableResult(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A table's game as it ended: copied from the game's log."""
    #: The game ended abandoned: nobody scores.
    abandoned: bool
    #: Each seat's total at the end.
    totals: list[int]
    #: The winning seats; empty when abandoned.
    winners: list[int]


class TimeoutPolicy(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    What happens when a human seat's decision is not taken in time (its turn clock runs out, or,
    with or without a clock, the player's bot endpoint gives no legal answer by its deadline): a bot
    of `bot_level` takes the decision; after `hand_over_after` consecutive timeouts the seat is the
    bot's for the rest of the game. A bot of `bot_level` also plays the seat of a player who
    resigns.
    """
    #: How the bot that takes expired decisions, and the seat of a player who resigns, plays:
    #: `random`, `greedy`, `expert` or `ismcts`.
    bot_level: BotLevel
    #: Consecutive timeouts after which the seat is handed to the bot for good, at least 1; null:
    #: never. A decision the player takes themselves starts the count again.
    hand_over_after: int | None


class TournamentItem(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A tournament in a list."""
    #: When.
    created_at: datetime
    #: Who created it.
    creator: str
    #: Its format.
    format: Literal["round_robin", "swiss", "duplicate"]
    #: Its name.
    name: str
    #: `running` or `finished`.
    status: str
    #: Its id.
    tournament_id: str


class TournamentOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A tournament: its rules, entrants, committed seeds, tables and standings."""
    #: Each round's entrants sitting out (Swiss).
    byes: list[list[int]]
    #: When it was created.
    created_at: datetime
    #: The player who created it.
    creator: str
    #: Duplicate: deals; Swiss: rounds; round robin: games.
    deals: int
    #: Who plays: players and built-in bot levels.
    entrants: list[PlayerEntrant | BotEntrant]
    #: `round_robin`, `swiss` or `duplicate`.
    format: Literal["round_robin", "swiss", "duplicate"]
    #: Its name.
    name: str
    #: Listed and open to watchers, and so are its games.
    public: bool
    #: Its games update ratings.
    rated: bool
    #: Rounds paired so far.
    rounds_paired: int
    #: How every game of it is played.
    ruleset: RuleSet
    #: SHA-256 (hex) of each seed its games are dealt from, published at creation.
    seed_hashes: list[str]
    #: The seeds themselves (hex), revealed when the tournament ends; null before.
    seeds: list[str] | None
    #: Best first.
    standings: list[Standing]
    #: `running` or `finished`.
    status: str
    #: Every table paired so far, by number.
    tables: list[TableOut]
    #: The tournament's id.
    tournament_id: str
    #: When its log last grew.
    updated_at: datetime
    #: The tournament log's version.
    version: int


class TournamentPage(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A page of `GET /v1/tournaments`, newest first."""
    #: The tournaments.
    tournaments: list[TournamentItem]


class TournamentVerifyReport(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What `GET /v1/tournaments/{id}/verify` answers."""
    #: Deals whose tables were all dealt the same cards (the first round's deal, compared event for
    #: event).
    deals_identical: int
    #: Events in the tournament's own log.
    events: int
    #: Tables whose game passed its own verify and was dealt from its deal's seed.
    games_verified: int
    #: True when every check passed.
    ok: bool
    #: What is wrong, for people; null when `ok` is true.
    reason: str | None
    #: Revealed seeds whose SHA-256 is the hash published at creation.
    seeds_verified: int
    #: The tournament's id.
    tournament_id: str


class Turn(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    Everything a seat needs to decide, read at one version: `GET /v1/games/{game_id}/turn`, and
    inline in a player's `your_turn` news.
    """
    #: The seats whose decision the game waits for: yours when `legal_commands` is not empty.
    awaiting: list[int]
    #: When your decision times out (turn clock); null without a clock or when the decision is not
    #: yours.
    deadline: datetime | None
    #: The game's id.
    game_id: str
    #: Every command you may send now, each ready to post to `POST /commands` as it is; empty while
    #: the game waits for another seat or is not being played.
    legal_commands: list[Command]
    #: `GET /turn`: the server's signed receipt for the log at `version` (docs/receipts.md); keep
    #: it. Left out in a `your_turn` news and a bot endpoint's turn, and when the operator turned
    #: receipts off.
    receipt: Receipt | UnsetType | None = UNSET
    #: Your seat.
    seat: int
    #: `lobby` before the deal, `playing` or `finished`.
    status: GameStatus
    #: The game's version: the number of events in its log.
    version: int
    #: The game as you may see it; null before the deal.
    view: GameView | None


class TurnEnded(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="turn_ended"):
    """
    With two_actions, the active seat ended its turn after one action instead of taking a second
    (§7.8, §13.2). A turn that takes all its actions ends without this event.
    """
    #: true when the server ended the turn because the seat had no card left to act with.
    auto: bool
    #: The seat whose turn ended.
    seat: int


class TurnOver(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="turn_over"):
    """
    The active seat's turn is over; hands are refilled next (§9). The server goes on at once: only
    GET /state at a version in the middle of a command shows it, never GET /view.
    """
    #: The seat whose turn just ended.
    seat: int


class TurnStarted(msgspec.Struct, kw_only=True, omit_defaults=True, tag_field="type", tag="turn_started"):
    """
    A seat's turn began: it is the active seat and must take an action (§6). Seats with an empty
    hand are skipped (§10); a round's first turn starts with round_started instead.
    """
    #: The seat whose turn it is now, 0-based.
    seat: int


class VerifyReport(msgspec.Struct, kw_only=True, omit_defaults=True):
    """
    What `GET /v1/games/{game_id}/verify` answers: whether the game's hash chain holds, every
    revealed shuffle matches its commitment, its deal and the draws from it, every event follows by
    the rules from a legal command of a seat the game awaited, and the log ends where the game's
    record does.
    """
    #: `cards_drawn` events that took exactly the top cards of the draw pile.
    draws_verified: int
    #: How a game that ended without a result ended, as its log records it: `expired: <reason>` or
    #: `abandoned: <reason>`; null otherwise.
    ended: str | None
    #: The number of events in the game's log.
    events: int
    #: The version of the event found wrong (checking stops at the first); null when `ok` is true.
    first_bad_version: int | None
    #: The game's id.
    game_id: str
    #: True when every check passed.
    ok: bool
    #: What is wrong, for people; null when `ok` is true.
    reason: str | None
    #: Ended rounds whose revealed seed matched its published SHA-256 and whose deal matched the
    #: seed.
    rounds_verified: int
    #: The seeds of the deal (rules version 4, docs/fair-shuffle.md §7): the master seed's
    #: commitment at creation and every seat's client seed; null when the log does not get that far.
    seeds: SeedsReport | None


class ViewOut(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Your view of a game, as `GET /v1/games/{game_id}/view` returns it (ETag: the version)."""
    #: The seats whose decision the game waits for; empty when it waits for none.
    awaiting: list[int]
    #: When the pending decision times out (turn clock); null without a clock, for a bot's decision,
    #: or when no decision is pending.
    deadline: datetime | None
    #: The game's id.
    game_id: str
    #: Your seat; null: you watch as a spectator.
    seat: int | None
    #: `lobby` before the deal, `playing` or `finished`.
    status: GameStatus
    #: The game's version: the number of events in its log.
    version: int
    #: The game as you may see it (a hand only if it is yours); null before the deal.
    view: GameView | None


Command: TypeAlias = (
    FormSet
    | Discard
    | Challenge
    | DraftSet
    | ImproveSet
    | PlaySwap
    | PlayMove
    | EndTurn
    | Respond
    | Concede
    | ChallengeDraft
    | PassDraft
    | ChooseMoveDirection
)


Event: TypeAlias = (
    GameStarted
    | RoundStarted
    | TurnStarted
    | SetFormed
    | CardDiscarded
    | CardsDrawn
    | ChallengeOpened
    | ChallengeAnswered
    | ChallengeConceded
    | SetDrafted
    | DraftChallengePassed
    | PileCardRevealed
    | RevealedSwapApplied
    | RevealedActionReturned
    | RevealedActionDiscarded
    | RevealedMoveAwaitingChoices
    | MoveDirectionChosen
    | RevealedMoveApplied
    | SetImproved
    | SwapPlayed
    | MovePlayed
    | TurnEnded
    | RoundEnded
    | GameEnded
    | GameCreated
    | SeatTaken
    | SeatLeft
    | SeatResigned
    | LobbyExpired
    | GameAbandoned
    | RematchOffered
    | InvitationDeclined
    | ClientSeedSet
    | DecisionTimedOut
    | SeatHandedToBot
    | ClockRestarted
    | ReactionSent
)


News: TypeAlias = (
    NewsSeated
    | NewsGameStarted
    | NewsYourTurn
    | NewsGameFinished
    | NewsChallenge
    | NewsChallengeAccepted
    | NewsChallengeDeclined
    | NewsMatched
)


Pending: TypeAlias = (
    AwaitingAction
    | AwaitingChallengeReply
    | AwaitingDraftChallenge
    | AwaitingMoveDirections
    | TurnOver
    | Flipping
    | NotStarted
    | GameOver
)


SeatHolder: TypeAlias = HumanSeat | BotSeat


#: One message of a game's event stream (Server-Sent Events: per event `id`, the version, `event:
#: message` and `data`, this object as JSON; `: heartbeat` comments when idle): the event, and whose
#: decision the game waits for after it.
StreamEvent: TypeAlias = dict[str, Any]
