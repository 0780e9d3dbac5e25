// Every problem the API answers (`application/problem+json`, RFC 9457) as an error class of its
// own, so that a bot can write `if (e instanceof RuleViolation) … e.legalCommands`, or switch on
// `e.code`. A code this client does not know yet is a plain `ProblemError`.
import type { DocumentedProblemCode } from "./generated/problems.js";
import type { Command, ProblemBody } from "./models.js";

export class ProblemError extends Error {
  readonly problem: ProblemBody;
  /** Stable, for programs: e.g. `stale_version`. */
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly type: string;
  /** For people; its wording may change. */
  readonly detail: string;
  /** With `rule_violation`: the engine's code for the rule broken. */
  readonly rule: string | null;
  /** With `stale_version`: the game's current version. */
  readonly currentVersion: number | null;
  /** With `malformed_request`: one object per failure. */
  readonly errors: Record<string, unknown>[] | null;
  /** With `rule_violation`: the commands you may send now, ready to post. */
  readonly legalCommands: Command[];
  /** `Retry-After` of a 429 or 503, in seconds. */
  readonly retryAfter: number | null;

  constructor(problem: ProblemBody, retryAfter: number | null = null) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = new.target.name;
    this.problem = problem;
    this.code = problem.code;
    this.status = problem.status;
    this.title = problem.title;
    this.type = problem.type;
    this.detail = problem.detail;
    this.rule = problem.rule ?? null;
    this.currentVersion = problem.current_version ?? null;
    this.errors = (problem.errors as Record<string, unknown>[] | null | undefined) ?? null;
    this.legalCommands = problem.legal_commands ?? [];
    this.retryAfter = retryAfter;
  }
}

/** 400: a body or parameter that does not fit the schema; `errors` says where. */
export class MalformedRequest extends ProblemError {}
/** 401: no API key, or an unknown one. */
export class Unauthorized extends ProblemError {}
/** 403: another seat's resource, or a seat you no longer hold. */
export class NotSeated extends ProblemError {}
/** 403: a private game you hold no seat in. */
export class PrivateGame extends ProblemError {}
/** 403: only the game's creator may do this (start it, add bots). */
export class NotCreator extends ProblemError {}
/** 403: the history of a game that is still running. */
export class GameNotFinished extends ProblemError {}
/** 403: the history of a game not dealt yet (its client seeds are secret until then). */
export class GameNotStarted extends ProblemError {}
/** 403: a private tournament you neither created nor entered. */
export class PrivateTournament extends ProblemError {}
/** 403: the verify of a tournament still running (its seeds are not revealed yet). */
export class TournamentNotFinished extends ProblemError {}
/** 403: as a watcher of a delayed game, a version watchers may not see yet. */
export class SpectatorDelay extends ProblemError {}
/** 404: no tournament has this id. */
export class TournamentNotFound extends ProblemError {}
/** 404: no game has this id. */
export class GameNotFound extends ProblemError {}
/** 404: no player has this id. */
export class PlayerNotFound extends ProblemError {}
/** 404: the game has no such version. */
export class VersionNotFound extends ProblemError {}
/** 404: no such route. */
export class NotFound extends ProblemError {}
/** 404: you have no bot endpoint. */
export class BotEndpointNotFound extends ProblemError {}
/** 404: you have no webhook subscription with this id. */
export class SubscriptionNotFound extends ProblemError {}
/** 404: the subscription has no such message. */
export class MessageNotFound extends ProblemError {}
/** 403: you cannot accept your own challenge. */
export class OwnChallenge extends ProblemError {}
/** 403: the challenge is to another player (accept or decline). */
export class NotChallenged extends ProblemError {}
/** 403: only the challenger cancels a challenge. */
export class NotChallenger extends ProblemError {}
/** 403: the seek is another player's. */
export class NotYourSeek extends ProblemError {}
/** 409: the challenge was accepted (by another), declined or cancelled already. */
export class ChallengeNotOpen extends ProblemError {}
/** 409: an open challenge cannot be declined: leave it to others. */
export class OpenChallenge extends ProblemError {}
/** 409: the seek was matched already (its game is dealt). */
export class SeekNotWaiting extends ProblemError {}
/** 422: a challenge to yourself. */
export class ChallengeYourself extends ProblemError {}
/** 422: a challenge seats two players and n − 2 bots, the challenger on the table. */
export class SeatsMismatch extends ProblemError {}
/** 405: the path does not take this method. */
export class MethodNotAllowed extends ProblemError {}
/** 409: the game waits for another seat. */
export class NotYourDecision extends ProblemError {}
/** 409: `If-Match` named an old version; `currentVersion` is the new one. */
export class StaleVersion extends ProblemError {}
/** 409: a player may have at most 10 webhook subscriptions. */
export class TooManySubscriptions extends ProblemError {}
/** 409: this `Idempotency-Key` came with another command in this game. */
export class IdempotencyKeyReused extends ProblemError {}
/** 413: the body is over the server's limit (64 KiB by default). */
export class BodyTooLarge extends ProblemError {}
/** 422: the rules refuse the command; `rule` names the rule, `legalCommands` what you may send. */
export class RuleViolation extends ProblemError {}
/** 422: the service will not send to this webhook URL. */
export class WebhookUrlRefused extends ProblemError {}
/** 429: over your rate limit; `retryAfter` says how long to wait. */
export class RateLimited extends ProblemError {}
/** 429: your seat sent a reaction less than 5 s ago (`retryAfter`), or its 60 in this game. */
export class TooManyReactions extends ProblemError {}
/** 500: a fault of the server's, not of the request. */
export class InternalError extends ProblemError {}
/** 500: the game's stored log cannot be read or replayed. */
export class DamagedLog extends ProblemError {}
/** 503: the server's database cannot be reached (or is not migrated); retry later. */
export class DatabaseUnavailable extends ProblemError {}

export type ProblemClass = new (problem: ProblemBody, retryAfter?: number | null) => ProblemError;

/** The class of each code (the README's table). Every code the contract documents must be
 * here: a new one fails to compile after `npm run generate`. */
export const BY_CODE = {
  malformed_request: MalformedRequest,
  unauthorized: Unauthorized,
  not_seated: NotSeated,
  private_game: PrivateGame,
  not_creator: NotCreator,
  game_not_finished: GameNotFinished,
  game_not_started: GameNotStarted,
  private_tournament: PrivateTournament,
  tournament_not_finished: TournamentNotFinished,
  spectator_delay: SpectatorDelay,
  tournament_not_found: TournamentNotFound,
  game_not_found: GameNotFound,
  player_not_found: PlayerNotFound,
  version_not_found: VersionNotFound,
  not_found: NotFound,
  bot_endpoint_not_found: BotEndpointNotFound,
  subscription_not_found: SubscriptionNotFound,
  message_not_found: MessageNotFound,
  own_challenge: OwnChallenge,
  not_challenged: NotChallenged,
  not_challenger: NotChallenger,
  not_your_seek: NotYourSeek,
  challenge_not_open: ChallengeNotOpen,
  open_challenge: OpenChallenge,
  seek_not_waiting: SeekNotWaiting,
  challenge_yourself: ChallengeYourself,
  seats_mismatch: SeatsMismatch,
  method_not_allowed: MethodNotAllowed,
  not_your_decision: NotYourDecision,
  stale_version: StaleVersion,
  too_many_subscriptions: TooManySubscriptions,
  idempotency_key_reused: IdempotencyKeyReused,
  body_too_large: BodyTooLarge,
  rule_violation: RuleViolation,
  webhook_url_refused: WebhookUrlRefused,
  rate_limited: RateLimited,
  too_many_reactions: TooManyReactions,
  internal_error: InternalError,
  damaged_log: DamagedLog,
  database_unavailable: DatabaseUnavailable,
} as const satisfies Record<DocumentedProblemCode, ProblemClass> & Record<string, ProblemClass>;

/** Every code this client has a class for. */
export type ProblemCode = keyof typeof BY_CODE;

/** A problem of a known code, discriminated by it: after `isKnownProblem(e)`,
 * `switch (e.code) { case "stale_version": … }` is checked by the compiler. */
export type KnownProblem = { [K in ProblemCode]: InstanceType<(typeof BY_CODE)[K]> & { readonly code: K } }[ProblemCode];

export function isKnownProblem(error: unknown): error is KnownProblem {
  return error instanceof ProblemError && Object.hasOwn(BY_CODE, error.code);
}

/** `Retry-After` in seconds (the delta form; an HTTP date counts from now). */
export function retryAfterOf(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(seconds, 0);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max((at - Date.now()) / 1000, 0);
}

/** The error for an error answer; one without a problem body becomes a bare `ProblemError`
 * that names the status. */
export async function problemOf(response: Response): Promise<ProblemError> {
  const text = await response.text();
  let problem: ProblemBody;
  try {
    problem = JSON.parse(text) as ProblemBody;
    if (typeof problem?.code !== "string") throw new TypeError("not a problem");
  } catch {
    problem = {
      code: `http_${response.status}`, status: response.status, title: response.statusText,
      type: "about:blank", detail: text.slice(0, 200),
    };
  }
  const cls: ProblemClass = (BY_CODE as Record<string, ProblemClass>)[problem.code] ?? ProblemError;
  return new cls(problem, retryAfterOf(response.headers));
}
