"""The body of `POST /v1/tournaments` (a request body: `REQUEST_BODIES` lists it); the
tournament as the API serves it is `service.tournaments.tournament_out`."""

from __future__ import annotations

from typing import Annotated

import msgspec

from cya_rules import RuleSet
from cya_rules.docs import doc
from service.tournaments.decide import MAX_DEALS, MAX_ENTRANTS
from service.tournaments.entrants import Entrant
from service.tournaments.events import Format


class NewTournament(msgspec.Struct, forbid_unknown_fields=True):
    """The body of `POST /v1/tournaments`."""

    format: Annotated[Format, doc(
        "`round_robin` (every set of table-size entrants meets once), `swiss` (rounds paired "
        "on the standings so far) or `duplicate` (each deal played at every seat rotation by "
        "every group of entrants, so results compare on the same cards).")]
    ruleset: Annotated[RuleSet, doc("How every game of the tournament is played.")]
    entrants: Annotated[list[Entrant], msgspec.Meta(min_length=2, max_length=MAX_ENTRANTS),
                        doc("Who plays: players (`{\"kind\": \"player\", \"player_id\": …}`, "
                            "a player with a webhook bot included) and built-in bots "
                            "(`{\"kind\": \"bot\", \"level\": \"greedy\"}`; a level may enter "
                            "many times).")]
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=128),
                    doc("The tournament's name.")] = "tournament"
    deals: Annotated[int, msgspec.Meta(ge=1, le=MAX_DEALS),
                     doc("Duplicate: how many deals.")] = 1
    rounds: Annotated[int, msgspec.Meta(ge=1, le=MAX_ENTRANTS),
                      doc("Swiss: how many rounds; null: ceil(log2(entrants)).")] | None = None
    rated: Annotated[bool, doc("Its games update ratings.")] = False
    public: Annotated[bool, doc("Listed, and open to watchers with its games.")] = True
