// Audit a game: its whole unredacted log (NDJSON), the game at a past version, and the
// server's own verification of it.
import type { HistoryLine, HistoryPage, ReceiptKeys, StateOut, VerifyReport } from "../models.js";
import { linesOf } from "../streams.js";
import { Area, gamePath } from "./base.js";

export class Audit extends Area {
  /** Every stored event, oldest first, read as it arrives (open once the game is finished,
   * or to a creator who held no seat at the deal). */
  async *history(gameId: string): AsyncGenerator<HistoryLine> {
    const response = await this.session.open({
      method: "GET", path: gamePath(gameId, "/history"), headers: { Accept: "application/x-ndjson" },
    });
    for await (const line of linesOf(response.body!, this.session.timeout)) {
      if (line.trim()) yield JSON.parse(line) as HistoryLine;
    }
  }

  /** A page of the same lines as JSON (`next_after` for the next page). */
  historyPage(gameId: string, after = 0, limit = 1000): Promise<HistoryPage> {
    return this.session.run({ method: "GET", path: gamePath(gameId, "/history/page"), params: { after, limit } });
  }

  state(gameId: string, version: number): Promise<StateOut> {
    return this.session.run({ method: "GET", path: gamePath(gameId, "/state"), params: { version } });
  }

  verify(gameId: string): Promise<VerifyReport> {
    return this.session.run({ method: "GET", path: gamePath(gameId, "/verify") });
  }

  /** The public keys that sign receipts, the retired ones included (docs/receipts.md). */
  receiptKeys(): Promise<ReceiptKeys> {
    return this.session.run({ method: "GET", path: "/v1/receipt-keys" });
  }
}
