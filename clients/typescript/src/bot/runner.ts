// The bot runner: a bot is one function, `choose(view, legal) -> command`; the runner does the
// rest. Per own decision it makes one request: the turn arrives inline in the player's news
// stream (`your_turn`), and the command goes out with `POST /commands`. (`playByTurns` is the
// other documented loop: `GET /turn`, one wait, then the command.)
//
// The news stream is read in one loop; lobby work that waits (starting a game once its seats
// are full, scanning the lobby for open seats) runs beside it. It runs in Node and browsers.
import type { Client } from "../client.js";
import type { Command, GameSummary, News, NewsGameFinished, Turn } from "../models.js";
import { NotYourDecision, ProblemError, RuleViolation, StaleVersion } from "../problems.js";
import { sleep } from "../transport.js";
import { type Choose, findsGames, type GameRecord, type GameResult, makesGames, newRecord, type Plan, type RunnerHooks } from "./plan.js";
import { Seeking } from "./seeking.js";

export * from "./plan.js";
export { resignAll } from "./resign.js";

export class Runner {
  readonly games = new Map<string, GameRecord>();
  readonly results: GameResult[] = [];
  /** Failures outside any game (creating, joining). */
  errors = 0;
  created = 0;
  /** No new games: finish the ones in play. */
  stopping = false;
  /** Everything is given up (`abort()`): `run` returns at once. */
  private readonly aborter = new AbortController();
  private closed = false;
  private me: string | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly trouble: (message: string, error?: unknown) => void;
  readonly seeking: Seeking;

  constructor(readonly client: Client, readonly choose: Choose, readonly plan: Plan, readonly hooks: RunnerHooks = {}) {
    this.trouble = hooks.onTrouble ?? ((message, error) => console.warn(message, error ?? ""));
    this.seeking = new Seeking(client, plan, this.trouble);
  }

  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  // -- the loop ---------------------------------------------------------------------------

  /** Play until the plan is done (or `stop()` and the games in play are over, or `abort()`). */
  async run(news?: AsyncIterable<News>): Promise<GameResult[]> {
    if (this.plan.join) await this.joinGame(this.plan.join);
    const lobby = this.lobbyWork();
    const stream = news ?? this.client.players.news({ signal: this.signal });
    try {
      for await (const item of stream) {
        await this.handle(item);
        if (this.done()) break;
      }
    } catch (error) {
      if (!this.signal.aborted) throw error;
    } finally {
      this.closed = true;
      this.wake();
      if (!this.signal.aborted) this.aborter.abort(); // ends the lobby's long polls
      await lobby;
    }
    return this.results;
  }

  done(): boolean {
    if (this.signal.aborted) return true;
    const active = this.games.size > 0;
    if (this.stopping) return !active;
    if (this.plan.join) return this.results.length > 0 && !active;
    return this.plan.games !== null && this.results.length + this.seeking.declined >= this.plan.games;
  }

  /** Take no new game; `run` returns once the games in play are over. */
  stop(): void {
    this.stopping = true;
    this.wake();
  }

  /** Leave at once: the news stream closes and requests in flight are abandoned. The games
   * stay in `games` for the caller to leave or resign (`resignAll`). */
  abort(): void {
    this.stopping = true;
    this.aborter.abort(new Error("the runner was aborted"));
    this.wake();
  }

  async handle(item: News): Promise<void> {
    if (await this.seeking.handle(item, this.plan.acceptChallenges && this.wantMore())) {
      this.wake(); // a seek or challenge settled: the lobby work may ask again
      return;
    }
    switch (item.type) {
      case "seated":
        this.track(item.game_id, item.seat);
        break;
      case "game_started": {
        const record = this.track(item.game_id, item.seat);
        if (record) this.started(record);
        break;
      }
      case "your_turn": {
        const record = this.track(item.game_id, item.seat);
        if (record) {
          this.started(record);
          await this.decide(record, item.turn);
        }
        break;
      }
      case "game_finished":
        this.finished(item);
        break;
    }
  }

  private track(gameId: string, seat: number): GameRecord | undefined {
    let record = this.games.get(gameId);
    const found = this.plan.accept || (findsGames(this.plan) && this.seeking.ours(gameId));
    if (record === undefined && found && !this.stopping) {
      record = newRecord(gameId, seat);
      this.games.set(gameId, record);
    }
    return record;
  }

  private started(record: GameRecord): void {
    if (record.started) return;
    record.started = true;
    record.startedAt = performance.now();
    this.hooks.onStart?.(record);
  }

  private finished(item: NewsGameFinished): void {
    const record = this.games.get(item.game_id);
    if (record === undefined) return;
    this.games.delete(item.game_id);
    const score = item.seat < item.totals.length ? item.totals[item.seat]! : 0;
    const result: GameResult = {
      gameId: item.game_id, seat: item.seat, winners: [...item.winners], totals: [...item.totals],
      decisions: record.decisions, errors: record.errors, won: item.winners.includes(item.seat), score,
      durationMs: record.startedAt === null ? null : performance.now() - record.startedAt,
    };
    this.results.push(result);
    this.wake(); // the lobby work may create the next game
    this.hooks.onResult?.(result);
  }

  // -- one decision -----------------------------------------------------------------------

  /** Choose and send one command for `turn`, unless it is stale or not ours. */
  async decide(record: GameRecord, turn: Turn): Promise<void> {
    if (turn.version <= record.actedAt || !turn.legal_commands.length || !turn.view) return;
    record.actedAt = turn.version;
    let command: Command;
    try {
      command = await this.choose(turn.view, [...turn.legal_commands]);
    } catch (error) {
      this.trouble(`choose() failed in game ${record.gameId}; sending the first legal command`, error);
      record.errors += 1;
      command = turn.legal_commands[0]!;
    }
    await this.send(record, turn, command);
  }

  private async send(record: GameRecord, turn: Turn, command: Command): Promise<void> {
    try {
      await this.client.play.send(record.gameId, command, { ifMatch: turn.version, signal: this.signal });
      record.decisions += 1;
    } catch (error) {
      if (this.signal.aborted) return;
      if (error instanceof StaleVersion || error instanceof NotYourDecision) {
        record.stale += 1; // the game moved on (a turn clock ran out): its news follows
      } else if (error instanceof RuleViolation) {
        this.trouble(`game ${record.gameId} refused ${JSON.stringify(command)}: ${error.detail}`);
        record.errors += 1;
        const fallback = error.legalCommands[0];
        if (fallback) await this.send(record, turn, fallback); // keep the game going
      } else {
        this.trouble(`sending a command in game ${record.gameId} failed`, error);
        record.errors += 1;
        await this.recover(record);
      }
    }
    this.hooks.onDecision?.(record);
  }

  /** After a failed send, the news stream says nothing new: ask for the turn again. */
  private async recover(record: GameRecord): Promise<void> {
    let turn: Turn;
    try {
      turn = await this.client.play.turn(record.gameId, 0, this.signal);
    } catch (error) {
      if (!this.signal.aborted) this.trouble(`game ${record.gameId}: the turn could not be read either`, error);
      return;
    }
    record.actedAt = Math.min(record.actedAt, turn.version - 1);
    await this.decide(record, turn);
  }

  /** The other loop, one game: `GET /turn` (waits until the decision is ours), then
   * `POST /commands`; until the game is over. */
  async playByTurns(gameId: string, seat: number): Promise<GameResult> {
    let record = this.games.get(gameId);
    if (record === undefined) {
      record = newRecord(gameId, seat, true);
      this.games.set(gameId, record);
    }
    for (;;) {
      const turn = await this.client.play.turn(gameId, undefined, this.signal);
      if (turn.status !== "lobby" && turn.status !== "playing") { // over: finished, abandoned, expired
        const view = turn.view;
        this.finished({
          type: "game_finished", id: "", game_id: gameId, version: turn.version, seat: turn.seat,
          winners: view ? [...view.winners] : [], totals: view ? view.seats.map((s) => s.total) : [],
          status: turn.status, reason: null, ratings: "none",
        });
        return this.results.at(-1)!;
      }
      await this.decide(record, turn);
    }
  }

  // -- the lobby --------------------------------------------------------------------------

  private wake(): void {
    this.wakeUp?.();
  }

  private async lobbyWork(): Promise<void> {
    while (!this.closed) {
      try {
        if (this.plan.new) await this.createGames();
        else if (this.plan.accept) await this.takeOpenSeats();
        else if (this.plan.seek || this.plan.challenge !== null) await this.askForGames();
        else if (this.plan.acceptChallenges && this.wantMore()) await this.seeking.takeOpenChallenges(this.plan.parallel);
      } catch (error) {
        if (this.closed) return;
        this.trouble("lobby work failed", error);
        this.errors += 1;
        await sleep(1, this.signal).catch(() => undefined);
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.plan.accept || this.plan.acceptChallenges ? 5000 : 30000);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private wantMore(): boolean {
    const active = this.games.size + this.seeking.pending.size;
    const target = this.plan.games;
    const made = makesGames(this.plan) ? this.created : this.results.length + active;
    return !this.stopping && !this.closed && active < this.plan.parallel && (target === null || made < target);
  }

  private async createGames(): Promise<void> {
    while (this.wantMore()) {
      const ruleset: Record<string, unknown> = { players: this.plan.players, end_mode: this.plan.endMode };
      if (this.plan.edition) ruleset.edition = this.plan.edition;
      const summary = await this.client.games.create({
        ruleset, bots: this.plan.bots.map((level) => ({ level })), public: this.plan.public,
      } as Parameters<Client["games"]["create"]>[0], { signal: this.signal });
      this.games.set(summary.game_id, newRecord(summary.game_id, await this.seatIn(summary)));
      this.created += 1;
      await this.startWhenFull(summary);
    }
  }

  /** Seek or challenge until `parallel` games are in play or asked for. */
  private async askForGames(): Promise<void> {
    while (this.wantMore()) {
      if (this.plan.seek) await this.seeking.seek(this.signal);
      else await this.seeking.challenge(this.plan.challenge!, this.signal);
      this.created += 1;
    }
  }

  private async startWhenFull(summary: GameSummary): Promise<void> {
    const gameId = summary.game_id;
    let version = summary.version;
    while (summary.seats.includes(null) && !this.closed) { // wait for players to sit down
      version = (await this.client.play.view(gameId, { waitForVersion: version + 1, timeout: 25, signal: this.signal })).version;
      summary = (await this.client.games.get(gameId)).summary;
    }
    if (!this.closed) await this.client.games.start(gameId, { signal: this.signal });
  }

  /** Our seat in the game, or -1. */
  private async seatOf(summary: GameSummary): Promise<number> {
    if (this.me === null) this.me = (await this.client.players.me()).player_id;
    return summary.seats.findIndex((s) => s !== null && s.kind === "human" && s.player_id === this.me);
  }

  private async seatIn(summary: GameSummary): Promise<number> {
    const seat = await this.seatOf(summary);
    if (seat < 0) throw new Error(`no seat of ours in game ${summary.game_id}`);
    return seat;
  }

  private async joinGame(gameId: string): Promise<void> {
    let summary = (await this.client.games.get(gameId)).summary;
    let seat = await this.seatOf(summary);
    if (seat < 0) { // not seated yet: take the lowest open seat
      summary = await this.client.games.join(gameId);
      seat = await this.seatIn(summary);
    }
    this.games.set(gameId, newRecord(gameId, seat, summary.status !== "lobby"));
  }

  private async takeOpenSeats(): Promise<void> {
    for await (const game of this.client.games.iterate({ status: "lobby" })) {
      if (!this.wantMore()) return;
      if (!game.seats.includes(null) || this.games.has(game.game_id)) continue;
      if ((await this.seatOf(game)) >= 0) continue; // already ours: its news brings it
      try {
        await this.client.games.join(game.game_id, undefined, { signal: this.signal }); // its `seated` news tracks it
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error; // taken meanwhile, or started
      }
    }
  }
}
