// Challenges and quick play (`client.challenges`, `client.matchmaking`): challenge a player or
// anyone, accept, decline or cancel; seek a game and stop seeking. What comes of them arrives
// on the news stream (`challenge`, `challenge_accepted`, `challenge_declined`, `matched`).
import type { ChallengeOut, NewChallenge, NewSeek, SeekOut } from "../models.js";
import { Area, type WriteOptions } from "./base.js";

const path = (id: string, rest = ""): string => `/v1/challenges/${encodeURIComponent(id)}${rest}`;
const seekPath = (id: string): string => `/v1/matchmaking/${encodeURIComponent(id)}`;

export class Challenges extends Area {
  create(challenge: NewChallenge, options: WriteOptions = {}): Promise<ChallengeOut> {
    return this.session.run({ method: "POST", path: "/v1/challenges", body: challenge, idempotent: true },
      options.idempotencyKey, options.signal);
  }

  list(limit?: number): Promise<ChallengeOut[]> {
    return this.session.run({ method: "GET", path: "/v1/challenges", params: { limit } });
  }

  get(challengeId: string): Promise<ChallengeOut> {
    return this.session.run({ method: "GET", path: path(challengeId) });
  }

  accept(challengeId: string, options: WriteOptions = {}): Promise<ChallengeOut> {
    return this.session.run({ method: "POST", path: path(challengeId, "/accept"), idempotent: true },
      options.idempotencyKey, options.signal);
  }

  decline(challengeId: string, reason?: string, options: WriteOptions = {}): Promise<ChallengeOut> {
    return this.session.run({ method: "POST", path: path(challengeId, "/decline"), body: { reason }, idempotent: true },
      options.idempotencyKey, options.signal);
  }

  cancel(challengeId: string, options: WriteOptions = {}): Promise<ChallengeOut> {
    return this.session.run({ method: "POST", path: path(challengeId, "/cancel"), idempotent: true },
      options.idempotencyKey, options.signal);
  }
}

export class Matchmaking extends Area {
  seek(seek: NewSeek, options: WriteOptions = {}): Promise<SeekOut> {
    return this.session.run({ method: "POST", path: "/v1/matchmaking", body: seek, idempotent: true },
      options.idempotencyKey, options.signal);
  }

  get(seekId: string): Promise<SeekOut> {
    return this.session.run({ method: "GET", path: seekPath(seekId) });
  }

  cancel(seekId: string): Promise<SeekOut> {
    return this.session.run({ method: "DELETE", path: seekPath(seekId), idempotent: true });
  }
}
