// The runner's ways to find opponents without a lobby: quick play (`--seek 4p --rated`),
// challenges (`--challenge PLAYER`, or `open`), and taking challenges (`--accept-challenges`:
// the ones to you, as the news brings them, and open ones), as the Python runner does.
//
// What it asks for is pending until the news says what became of it (`matched`,
// `challenge_accepted`, `challenge_declined`); the games they become are the runner's to play.
import type { Client } from "../client.js";
import type { NewChallenge, NewSeek, News } from "../models.js";
import { ProblemError } from "../problems.js";

export const OPEN = "open"; // `--challenge open`: anyone may take it

export interface SeekingPlan {
  players: number;
  rated: boolean;
  edition: string | null;
  endMode: string;
  bots: string[];
}

export class Seeking {
  /** Seek and challenge ids the news has not settled. */
  readonly pending = new Set<string>();
  /** Games they became, before their own news. */
  readonly expected = new Set<string>();
  declined = 0;

  constructor(private readonly client: Client, private readonly plan: SeekingPlan,
    private readonly trouble: (message: string, error?: unknown) => void) {}

  /** A game the news names is ours: one we were told of, or any while something is pending
   * (its news may come before the answer that names it). */
  ours(gameId: string): boolean {
    return this.expected.has(gameId) || this.pending.size > 0;
  }

  async seek(signal?: AbortSignal): Promise<void> {
    const body: Record<string, unknown> = { players: this.plan.players, rated: this.plan.rated };
    if (this.plan.edition) body.edition = this.plan.edition;
    const made = await this.client.matchmaking.seek(body as NewSeek, { signal });
    this.settleOrWait(made.seek_id, made.game_id);
  }

  async challenge(to: string, signal?: AbortSignal): Promise<void> {
    const ruleset: Record<string, unknown> = { players: 2 + this.plan.bots.length, end_mode: this.plan.endMode };
    if (this.plan.edition) ruleset.edition = this.plan.edition;
    const body = { ruleset, rated: this.plan.rated, bots: this.plan.bots, to: to === OPEN ? null : to };
    const made = await this.client.challenges.create(body as NewChallenge, { signal });
    this.settleOrWait(made.challenge_id, made.game_id);
  }

  /** Take a challenge; false if it is gone (taken, cancelled). */
  async accept(challengeId: string): Promise<boolean> {
    this.pending.add(challengeId);
    let gameId: string | null = null;
    try {
      gameId = (await this.client.challenges.accept(challengeId)).game_id;
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      this.trouble(`could not accept challenge ${challengeId}: ${error.detail}`);
    } finally {
      if (gameId) this.expected.add(gameId);
      this.pending.delete(challengeId);
    }
    return gameId !== null;
  }

  /** Accept up to `want` open challenges of others; how many were taken. */
  async takeOpenChallenges(want: number): Promise<number> {
    const me = (await this.client.players.me()).player_id;
    let taken = 0;
    for (const c of await this.client.challenges.list()) {
      if (taken >= want) break;
      if (c.challenger !== me && await this.accept(c.challenge_id)) taken += 1;
    }
    return taken;
  }

  private settleOrWait(ident: string, gameId: string | null): void {
    if (gameId) this.expected.add(gameId);
    else this.pending.add(ident);
  }

  /** The news of seeks and challenges; true when it was one. */
  async handle(item: News, acceptChallenges: boolean): Promise<boolean> {
    switch (item.type) {
      case "matched":
        this.pending.delete(item.seek_id);
        this.expected.add(item.game_id);
        return true;
      case "challenge_accepted":
        this.pending.delete(item.challenge_id);
        this.expected.add(item.game_id);
        return true;
      case "challenge_declined":
        if (this.pending.delete(item.challenge_id)) this.declined += 1;
        this.trouble(`challenge ${item.challenge_id} declined: ${item.reason ?? "no reason given"}`);
        return true;
      case "challenge":
        if (acceptChallenges) await this.accept(item.challenge_id);
        return true;
      default:
        return false;
    }
  }
}
