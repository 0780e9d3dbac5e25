// The lobby (`client.games`): list and create games, take seats, add bots, start, leave and
// resign. Every write carries an `Idempotency-Key`, so a retry never does it twice.
// Taking a seat (creating a game you join, or joining one) sends the seat's client seed, 32
// bytes from the CSPRNG unless one is given (`null`: none), so that the seat adds to the deal's
// randomness (docs/fair-shuffle.md §7).
import type { BotLevel, GameDetail, GamePage, GameSummary, NewGame, operations } from "../models.js";
import { Area, gamePath, type WriteOptions } from "./base.js";

export type GameFilters = NonNullable<operations["listGames"]["parameters"]["query"]>;

/** A client seed: 32 bytes from the CSPRNG, base64. */
export function freshSeed(): string {
  return btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(32))));
}

export class Games extends Area {
  /** One page of the lobby (public games, or with `mine: true` yours), newest first. */
  list(filters: GameFilters = {}): Promise<GamePage> {
    return this.session.run({ method: "GET", path: "/v1/games", params: filters });
  }

  /** Every game `list` finds, page after page. */
  async *iterate(filters: Omit<GameFilters, "cursor"> = {}): AsyncGenerator<GameSummary> {
    let cursor: string | null = null;
    for (;;) {
      const page: GamePage = await this.list({ ...filters, ...(cursor === null ? {} : { cursor }) });
      yield* page.games;
      if (page.next_cursor === null || page.next_cursor === undefined) return;
      cursor = page.next_cursor;
    }
  }

  create(game: NewGame, options: WriteOptions = {}): Promise<GameSummary> {
    const seeded = game.join === false || game.client_seed !== undefined ? game
      : { ...game, client_seed: freshSeed() };
    return this.session.run({ method: "POST", path: "/v1/games", body: seeded, idempotent: true },
      options.idempotencyKey, options.signal);
  }

  get(gameId: string): Promise<GameDetail> {
    return this.session.run({ method: "GET", path: gamePath(gameId) });
  }

  /** Take a seat (the lowest open one by default), with a fresh client seed. */
  join(gameId: string, seat?: number, options: WriteOptions = {}): Promise<GameSummary> {
    const body = { client_seed: freshSeed(), ...(seat === undefined ? {} : { seat }) };
    return this.write(gameId, "/seats", body, options);
  }

  /** Set or replace your seat's client seed before the deal (base64; a fresh one by default,
   * `""`: the empty value). */
  setClientSeed(gameId: string, seed: string = freshSeed(), options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/client-seed", { seed }, options);
  }

  addBot(gameId: string, level: BotLevel = "random", seat?: number, options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/bots", seat === undefined ? { level } : { level, seat }, options);
  }

  start(gameId: string, options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/start", undefined, options);
  }

  leave(gameId: string, options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/leave", undefined, options);
  }

  /** Hand your seat to a bot for the rest of the game. */
  resign(gameId: string, options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/resign", undefined, options);
  }

  /** Once a game is over: a new one, same rules and players, seats rotated, the other players
   * invited (or the rematch already asked for). */
  rematch(gameId: string, options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/rematch", undefined, options);
  }

  /** Turn down the seat kept for you in a rematch. */
  decline(gameId: string, options: WriteOptions = {}): Promise<GameSummary> {
    return this.write(gameId, "/decline", undefined, options);
  }

  private write(gameId: string, rest: string, body: unknown, options: WriteOptions): Promise<GameSummary> {
    return this.session.run({ method: "POST", path: gamePath(gameId, rest), body, idempotent: true },
      options.idempotencyKey, options.signal);
  }
}
