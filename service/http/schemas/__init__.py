"""Request and response bodies (msgspec), shared by the controllers and the OpenAPI document:
one module per resource. Their class names are the contract's component names.
"""

from __future__ import annotations

from cya_rules.commands import SeatCommand
from service.http.schemas.games import AddBotBody, JoinSeat, NewGame
from service.http.schemas.matchmaking import DeclineChallenge, NewChallenge, NewSeek
from service.http.schemas.players import NewPlayer
from service.http.schemas.tournaments import NewTournament

# Every request body, for the contract's description of what a client sends
# (`openapi.request_structs`).
REQUEST_BODIES = (NewPlayer, NewGame, JoinSeat, AddBotBody, SeatCommand, NewTournament,
                  NewChallenge, DeclineChallenge, NewSeek)
