// Giving up: every game of a runner left (not started yet) or resigned (a bot of the game's
// timeout level plays the seat to the end). The second Ctrl-C of `cya-bot`.
import type { Client } from "../client.js";
import { RuleViolation } from "../problems.js";
import type { GameRecord } from "./plan.js";
import type { Runner } from "./runner.js";

/** Give up every game of the runner: leave those still in the lobby, resign the others.
 *
 * A game the runner has not heard start may have been dealt a moment ago (its news not read
 * yet): the server refuses to let its seat go by leaving (`already_started`), so it is resigned
 * instead. Otherwise the seat would hold the game until it is abandoned. */
export async function resignAll(client: Client, runner: Runner, say: (line: string) => void = console.log): Promise<void> {
  for (const record of [...runner.games.values()]) {
    try {
      if (!record.started && (await left(client, record))) {
        say(`left game ${record.gameId} before its start`);
        continue;
      }
      await client.games.resign(record.gameId);
      say(`resigned game ${record.gameId}: a bot plays seat ${record.seat} to the end`);
    } catch (error) {
      say(`game ${record.gameId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Leave the game; false if it has started meanwhile (it must be resigned). */
async function left(client: Client, record: GameRecord): Promise<boolean> {
  try {
    await client.games.leave(record.gameId);
    return true;
  } catch (error) {
    if (error instanceof RuleViolation && error.rule === "already_started") return false;
    throw error;
  }
}
