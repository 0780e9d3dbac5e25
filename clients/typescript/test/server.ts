// The servers the tests run against, started by tests/sdk/test_typescript.py (real uvicorn
// processes): CYA_TEST_URL, an API on a migrated database that takes bot moves itself; and
// CYA_TEST_BROKEN_URL, one on a database never migrated, at 3 requests a minute.
import { Client, type NewGame } from "../src/index.js";
import { CountingFetch } from "../src/transport.js";

export const SERVER = process.env.CYA_TEST_URL ?? "http://127.0.0.1:8000";
export const BROKEN_URL = process.env.CYA_TEST_BROKEN_URL ?? "";

/** A client holding a new player's key (its requests counted, from after its creation). */
export async function player(name: string): Promise<{ client: Client; counted: CountingFetch }> {
  const counted = new CountingFetch();
  const client = new Client(SERVER, null, { fetch: counted.fetch });
  client.apiKey = (await client.players.create(name)).api_key;
  counted.clear();
  return { client, counted };
}

export function newGame(players: number, bots: string[], extra: Partial<NewGame> = {}): NewGame {
  return { ruleset: { players, end_mode: "quick" }, bots: bots.map((level) => ({ level })), ...extra } as NewGame;
}
