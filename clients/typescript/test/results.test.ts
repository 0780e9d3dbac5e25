// The results table both runners print: the win rate with its Wilson 95% interval, the same
// figures as the Python runner's (cya_client/bot/results.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { resultsTable, wilson } from "../src/bot/results.js";
import type { GameResult } from "../src/bot/plan.js";
import type { Runner } from "../src/bot/runner.js";

test("given wins out of games, the interval is Wilson's, as in Python", () => {
  const [low, high] = wilson(17, 100);
  assert.ok(Math.abs(low - 0.108936) < 1e-6 && Math.abs(high - 0.255480) < 1e-6, `${low} ${high}`);
  assert.deepEqual(wilson(0, 0), [0, 1]);
  assert.equal(wilson(5, 5)[1], 1);
});

test("given results, the table shows the win rate and its interval", () => {
  const result = (won: boolean) => ({ won, score: 100, errors: 0, decisions: 3 }) as unknown as GameResult;
  const runner = { errors: 0, games: new Map() } as unknown as Runner;
  const table = resultsTable([result(true), ...Array.from({ length: 3 }, () => result(false))], runner);
  assert.match(table, /95% interval/);
  assert.match(table, /25\.0% │ +4\.6% – 69\.9%/);
});
