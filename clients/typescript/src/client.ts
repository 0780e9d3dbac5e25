// `Client`: one session, one small object per area of the API.
//
//     import { Client } from "cya-client";
//     const cya = new Client("http://127.0.0.1:8000", KEY);
//     const turn = await cya.play.turn(gameId);
//     await cya.play.send(gameId, turn.legal_commands[0]!);
import { Audit } from "./areas/audit.js";
import { Ops, Ratings, Rulesets } from "./areas/catalogue.js";
import { Follow } from "./areas/follow.js";
import { Games } from "./areas/games.js";
import { Challenges, Matchmaking } from "./areas/matchmaking.js";
import { Play } from "./areas/play.js";
import { Players } from "./areas/players.js";
import { Tournaments } from "./areas/tournaments.js";
import { Webhooks } from "./areas/webhooks.js";
import type { OperationId } from "./models.js";
import { Session, type SessionOptions } from "./transport.js";

export const DEFAULT_URL = "http://127.0.0.1:8000";

/** Every operation of the contract, by its operationId, and the method that calls it: the
 * compiler refuses an operation of the contract left out (a test holds the methods to it). */
export const OPERATIONS = {
  createPlayer: "players.create", getMe: "players.me", streamMyEvents: "players.news",
  listGames: "games.list", createGame: "games.create", getGame: "games.get",
  joinGame: "games.join", addBot: "games.addBot", startGame: "games.start",
  leaveGame: "games.leave", resignGame: "games.resign", setClientSeed: "games.setClientSeed",
  rematchGame: "games.rematch", declineInvitation: "games.decline",
  getTurn: "play.turn", postCommand: "play.send", getView: "play.view",
  getLegalCommands: "play.legalCommands", sendReaction: "play.react",
  listEvents: "follow.events", getHistory: "audit.history",
  getHistoryPage: "audit.historyPage", getStateAt: "audit.state",
  verifyGame: "audit.verify", listReceiptKeys: "audit.receiptKeys", listRulesets: "rulesets.catalogue",
  getLeaderboard: "ratings.leaderboard", getPlayer: "ratings.player",
  createTournament: "tournaments.create", listTournaments: "tournaments.list",
  getTournament: "tournaments.get", getTournamentStandings: "tournaments.standings",
  verifyTournament: "tournaments.verify",
  registerBotEndpoint: "webhooks.registerBot", getBotEndpoint: "webhooks.bot",
  deleteBotEndpoint: "webhooks.deleteBot", rotateBotEndpointSecret: "webhooks.rotateBot",
  listBotAttempts: "webhooks.botAttempts",
  createWebhookSubscription: "webhooks.subscribe",
  listWebhookSubscriptions: "webhooks.subscriptions",
  getWebhookSubscription: "webhooks.subscription",
  deleteWebhookSubscription: "webhooks.unsubscribe",
  rotateWebhookSubscriptionSecret: "webhooks.rotate",
  enableWebhookSubscription: "webhooks.enable",
  listWebhookDeliveries: "webhooks.deliveries",
  redeliverWebhookMessage: "webhooks.redeliver",
  createChallenge: "challenges.create", listOpenChallenges: "challenges.list",
  getChallenge: "challenges.get", acceptChallenge: "challenges.accept",
  declineChallenge: "challenges.decline", cancelChallenge: "challenges.cancel",
  seekGame: "matchmaking.seek", getSeek: "matchmaking.get", cancelSeek: "matchmaking.cancel",
  getHealth: "ops.health", getReadiness: "ops.ready", getMetrics: "ops.metrics",
} as const satisfies Record<OperationId, string>;

export class Client {
  readonly session: Session;
  readonly players: Players;
  readonly games: Games;
  readonly play: Play;
  readonly follow: Follow;
  readonly audit: Audit;
  readonly rulesets: Rulesets;
  readonly ratings: Ratings;
  readonly tournaments: Tournaments;
  readonly webhooks: Webhooks;
  readonly challenges: Challenges;
  readonly matchmaking: Matchmaking;
  readonly ops: Ops;

  /** `apiKey` may be set later (`client.apiKey = ...`). */
  constructor(baseUrl: string = DEFAULT_URL, apiKey: string | null = null, options: SessionOptions = {}) {
    this.session = new Session(baseUrl, apiKey, options);
    this.players = new Players(this.session);
    this.games = new Games(this.session);
    this.play = new Play(this.session);
    this.follow = new Follow(this.session);
    this.audit = new Audit(this.session);
    this.rulesets = new Rulesets(this.session);
    this.ratings = new Ratings(this.session);
    this.tournaments = new Tournaments(this.session);
    this.webhooks = new Webhooks(this.session);
    this.challenges = new Challenges(this.session);
    this.matchmaking = new Matchmaking(this.session);
    this.ops = new Ops(this.session);
  }

  get apiKey(): string | null {
    return this.session.apiKey;
  }

  set apiKey(key: string | null) {
    this.session.apiKey = key;
  }

  /** Any route, raw: the answer's text, or the problem raised. */
  request(method: "GET" | "POST" | "DELETE", path: string, options: { body?: unknown; idempotent?: boolean } = {}): Promise<string> {
    const ok = Array.from({ length: 100 }, (_, i) => 200 + i);
    return this.session.run({ method, path, body: options.body, idempotent: options.idempotent ?? false, ok, read: "text" });
  }
}
