// The contract's types (generated: src/generated/openapi.ts), and names for the unions the
// contract leaves unnamed: a command, a piece of news, an event.
import type {
  EventOut,
  GameSummary,
  NewsChallenge,
  NewsChallengeAccepted,
  NewsChallengeDeclined,
  NewsGameFinished,
  NewsMatched,
  NewsGameStarted,
  NewsSeated,
  NewsYourTurn,
  Turn,
  operations,
} from "./generated/openapi.js";

export type * from "./generated/openapi.js";

/** One command, as `legal_commands` lists it: ready to post as it is. */
export type Command = Turn["legal_commands"][number];
/** The kinds of command, by their `type`. */
export type CommandType = Command["type"];
/** One item of a player's news stream (`GET /v1/players/me/events`). */
export type News = NewsSeated | NewsGameStarted | NewsYourTurn | NewsGameFinished
  | NewsChallenge | NewsChallengeAccepted | NewsChallengeDeclined | NewsMatched;
/** One event of a game's log, redacted for you. */
export type Event = EventOut["event"];
/** Who holds a seat: a person, a bot, or nobody yet (`null`). */
export type SeatHolder = GameSummary["seats"][number];
/** Every operation of the contract, by its `operationId`. */
export type OperationId = keyof operations;

// The news stream's items must be exactly the kinds above: a fifth kind in the contract
// fails here, so that `News` is widened with it.
type ContractNews = operations["streamMyEvents"]["responses"][200]["content"]["application/x-ndjson"];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const NEWS_IS_THE_CONTRACTS: Same<News, ContractNews> = true;
