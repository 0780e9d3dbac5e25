// What the runner is asked to play (`Plan`), and what it keeps of each game (`GameRecord`,
// `GameResult`): plain data, shared by the runner, its command line and its callers.
import type { Command, GameView } from "../models.js";

export type Choose = (view: GameView, legal: Command[]) => Command | Promise<Command>;

export interface GameRecord {
  gameId: string;
  seat: number;
  started: boolean;
  /** The version of the last turn acted on: older news is stale. */
  actedAt: number;
  decisions: number;
  errors: number;
  /** Commands the game had moved past (a clock ran out): not the bot's fault. */
  stale: number;
  /** When the runner saw the game start (ms, `performance.now()`). */
  startedAt: number | null;
}

export interface GameResult {
  gameId: string;
  seat: number;
  winners: number[];
  totals: number[];
  decisions: number;
  errors: number;
  won: boolean;
  score: number;
  /** From the start the runner saw to its end, in ms (null: its start was not seen). */
  durationMs: number | null;
}

/** Which games to play: `new` games of `players` seats with `bots`, one after another
 * (`parallel` at once); or the game `join`; or, with `accept`, every seat it is given and open
 * seats of public games; or games found by quick play (`seek`), by challenging (`challenge`) or
 * by taking challenges (`acceptChallenges`). `games`: stop after that many finished (null:
 * never). */
export interface Plan {
  new: boolean;
  players: number;
  bots: string[];
  endMode: string;
  edition: string | null;
  games: number | null;
  parallel: number;
  join: string | null;
  accept: boolean;
  public: boolean;
  /** Quick play: games of `players` seats (`rated` or not). */
  seek: boolean;
  rated: boolean;
  /** Challenge this player (an id), or `open`: two players and `bots`. */
  challenge: string | null;
  /** Take challenges to us, and open ones. */
  acceptChallenges: boolean;
}

/** Its games are those the news says a seek or challenge became. */
export const findsGames = (plan: Plan): boolean => plan.seek || plan.challenge !== null || plan.acceptChallenges;
/** Each game it plays is one it asked for (counted by `Runner.created`). */
export const makesGames = (plan: Plan): boolean => plan.new || plan.seek || plan.challenge !== null;

export const defaultPlan = (plan: Partial<Plan>): Plan => ({
  new: false, players: 4, bots: [], endMode: "quick", edition: null, games: null, parallel: 1,
  join: null, accept: false, public: true, seek: false, rated: false, challenge: null,
  acceptChallenges: false, ...plan,
});

export interface RunnerHooks {
  onResult?: (result: GameResult) => void;
  onDecision?: (record: GameRecord) => void;
  onStart?: (record: GameRecord) => void;
  /** A failure the runner got past (logged by the command line); `console.warn` by default. */
  onTrouble?: (message: string, error?: unknown) => void;
}

export const newRecord = (gameId: string, seat: number, started = false): GameRecord => ({
  gameId, seat, started, actedAt: -1, decisions: 0, errors: 0, stale: 0, startedAt: started ? performance.now() : null,
});
