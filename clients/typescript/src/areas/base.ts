// What every area shares: the client's one session.
import type { Session } from "../transport.js";

export abstract class Area {
  constructor(protected readonly session: Session) {}
}

export const gamePath = (gameId: string, rest = ""): string =>
  `/v1/games/${encodeURIComponent(gameId)}${rest}`;

/** Options every write takes: its `Idempotency-Key` (made for you when left out) and a signal
 * to abort it. */
export interface WriteOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}
