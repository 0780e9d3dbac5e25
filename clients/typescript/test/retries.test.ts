// Retries against a real server that cannot reach its database (never migrated) and allows 3
// requests a minute: a 503 is retried after its Retry-After; then a 429 is a RateLimited that
// says how long to wait. One file, in order: both share the server's per-address budget.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, CountingFetch, DatabaseUnavailable, NO_RETRIES, RateLimited } from "../src/index.js";
import { BROKEN_URL } from "./server.js";

test("given a 503 with Retry-After, the request is sent again after that wait (capped by the policy)", async () => {
  const counted = new CountingFetch();
  const retry = { attempts: 2, backoff: 0.001, maxBackoff: 0.001, maxRetryAfter: 0.3 };
  const client = new Client(BROKEN_URL, "some-key", { fetch: counted.fetch, retry });
  const t0 = performance.now();
  await assert.rejects(client.players.me(), (error: unknown) => {
    assert.ok(error instanceof DatabaseUnavailable, String(error));
    assert.ok(error.retryAfter !== null && error.retryAfter > 0);
    return true;
  });
  assert.equal(counted.total, 2, "one try and one retry");
  assert.ok(performance.now() - t0 >= 300, "the retry waited Retry-After (as capped), not the 1 ms backoff");
});

test("given a client over its rate limit, the 429 is a RateLimited with its Retry-After", async () => {
  const client = new Client(BROKEN_URL, "some-key", { retry: NO_RETRIES });
  let limited: RateLimited | null = null;
  for (let i = 0; i < 10 && limited === null; i++) {
    try {
      await client.players.me();
    } catch (error) {
      if (error instanceof RateLimited) limited = error;
      else assert.ok(error instanceof DatabaseUnavailable, String(error));
    }
  }
  assert.ok(limited, "no 429 within 10 requests at 3 a minute");
  assert.equal(limited.status, 429);
  assert.ok(limited.retryAfter !== null && limited.retryAfter > 0);
});
