// The small read-only areas: rule sets, ratings, and operations (liveness, readiness, metrics).
import type { Catalogue, Health, Leaderboard, PlayerOut } from "../models.js";
import { Area } from "./base.js";

export class Rulesets extends Area {
  /** The editions with their cards, presets, options, bot levels and rules versions. */
  catalogue(): Promise<Catalogue> {
    return this.session.run({ method: "GET", path: "/v1/rulesets" });
  }
}

export class Ratings extends Area {
  leaderboard(family = "3-6p", offset = 0, limit = 50): Promise<Leaderboard> {
    return this.session.run({ method: "GET", path: "/v1/leaderboard", params: { family, offset, limit } });
  }

  player(playerId: string): Promise<PlayerOut> {
    return this.session.run({ method: "GET", path: `/v1/players/${encodeURIComponent(playerId)}` });
  }
}

export class Ops extends Area {
  health(): Promise<Health> {
    return this.session.run({ method: "GET", path: "/v1/healthz" });
  }

  /** `status` is `unavailable` (and `checks` says why) when the server is not ready: answered,
   * not raised. */
  ready(): Promise<Health> {
    return this.session.run({ method: "GET", path: "/v1/readyz", ok: [200, 503], retry: false });
  }

  /** The Prometheus text. */
  metrics(): Promise<string> {
    return this.session.run({ method: "GET", path: "/v1/metrics", headers: { Accept: "text/plain" }, read: "text" });
  }
}
