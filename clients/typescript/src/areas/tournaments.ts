// Tournaments (`client.tournaments`): create one (round robin, Swiss or duplicate; players and
// built-in bots), list and read them, their standings, and verify a finished one.
import type { NewTournament, StandingsOut, TournamentOut, TournamentPage, TournamentVerifyReport } from "../models.js";
import { Area, type WriteOptions } from "./base.js";

const path = (id: string, rest = ""): string => `/v1/tournaments/${encodeURIComponent(id)}${rest}`;

export class Tournaments extends Area {
  create(tournament: NewTournament, options: WriteOptions = {}): Promise<TournamentOut> {
    return this.session.run({ method: "POST", path: "/v1/tournaments", body: tournament, idempotent: true },
      options.idempotencyKey, options.signal);
  }

  list(status?: string, limit?: number): Promise<TournamentPage> {
    return this.session.run({ method: "GET", path: "/v1/tournaments", params: { status, limit } });
  }

  get(tournamentId: string): Promise<TournamentOut> {
    return this.session.run({ method: "GET", path: path(tournamentId) });
  }

  standings(tournamentId: string): Promise<StandingsOut> {
    return this.session.run({ method: "GET", path: path(tournamentId, "/standings") });
  }

  verify(tournamentId: string): Promise<TournamentVerifyReport> {
    return this.session.run({ method: "GET", path: path(tournamentId, "/verify") });
  }
}
