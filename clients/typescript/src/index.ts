// cya-client: a typed client for the Cover Your Assets game service, for Node 20 and browsers.
export * from "./client.js";
export * from "./problems.js";
export * from "./streams.js";
export * from "./transport.js";
export type * from "./models.js";
export { DOCUMENTED_PROBLEMS, type DocumentedProblemCode } from "./generated/problems.js";
export { Games, type GameFilters } from "./areas/games.js";
export { Play, type SendOptions, TURN_WAIT } from "./areas/play.js";
export { Players, NEWS_WAIT } from "./areas/players.js";
export { Follow, STREAM_WAIT } from "./areas/follow.js";
export { Audit } from "./areas/audit.js";
export { Ops, Ratings, Rulesets } from "./areas/catalogue.js";
export { Tournaments } from "./areas/tournaments.js";
export { Challenges, Matchmaking } from "./areas/matchmaking.js";
export { Webhooks } from "./areas/webhooks.js";
export type { WriteOptions } from "./areas/base.js";
