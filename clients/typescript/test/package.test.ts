// The package on its own: types generated from the committed contract, every operation a
// method, a class for every problem code the README lists. (That the library uses no Node-only
// API is `npm run check`'s: it compiles it without Node's types, tsconfig.browser.json.)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  BY_CODE, Client, DOCUMENTED_PROBLEMS, isKnownProblem, OPERATIONS, ProblemError, RuleViolation, SseParser, problemOf,
} from "../src/index.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..", "..", "..");

test("given the committed contract, the generated types are current", () => {
  execFileSync(process.execPath, [join(HERE, "..", "scripts", "generate.mjs"), "--check"], { stdio: "pipe" });
});

test("given the contract, every operation has a method", () => {
  const contract = JSON.parse(readFileSync(join(ROOT, "openapi", "openapi.json"), "utf8"));
  const ids = new Set<string>();
  for (const item of Object.values(contract.paths) as Record<string, { operationId?: string }>[]) {
    for (const op of Object.values(item)) if (op.operationId) ids.add(op.operationId);
  }
  assert.deepEqual(new Set(Object.keys(OPERATIONS)), ids);
  const client = new Client("http://127.0.0.1:9") as unknown as Record<string, Record<string, unknown>>;
  for (const method of Object.values(OPERATIONS)) {
    const [area, name] = method.split(".") as [string, string];
    assert.equal(typeof client[area]?.[name], "function", method);
  }
});

test("given the README's table of problems, each code has a class of its own", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const rows = readme.split("\n").filter((line) => /^\s*\|\s*\d{3}\s*\|/.test(line));
  const codes = new Set(rows.flatMap((row) => [...row.split("|")[2]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)));
  assert.ok(codes.size >= 25, `only ${codes.size} codes found in the README`);
  assert.deepEqual(new Set(Object.keys(BY_CODE)), codes);
  for (const code of Object.keys(DOCUMENTED_PROBLEMS)) assert.ok(code in BY_CODE, code);
  const classes = new Set(Object.values(BY_CODE));
  assert.equal(classes.size, codes.size); // one class each
});

test("given a problem answer, the error is its code's class with its fields; an unknown code a ProblemError", async () => {
  const body = {
    code: "rule_violation", status: 422, title: "Rule violation", type: "x", detail: "no",
    rule: "not_in_hand", legal_commands: [{ type: "concede" }],
  };
  const error = await problemOf(new Response(JSON.stringify(body), { status: 422 }));
  assert.ok(error instanceof RuleViolation);
  assert.equal(error.rule, "not_in_hand");
  assert.deepEqual(error.legalCommands, [{ type: "concede" }]);
  assert.ok(isKnownProblem(error) && error.code === "rule_violation");
  const unknown = await problemOf(new Response(JSON.stringify({ ...body, code: "new_code" }), { status: 422 }));
  assert.equal(unknown.constructor, ProblemError);
  assert.ok(!isKnownProblem(unknown));
  const bare = await problemOf(new Response("<html>bad gateway</html>", { status: 502, headers: { "Retry-After": "7" } }));
  assert.equal(bare.code, "http_502");
  assert.equal(bare.retryAfter, 7);
});

test("given Server-Sent Events lines, the parser dispatches on blank lines and skips comments", () => {
  const parser = new SseParser();
  const out = [": heartbeat", "", "id: 4", "event: message", "data: {\"a\":", "data: 1}", "", ""].map((l) => parser.feed(l));
  assert.deepEqual(out.filter(Boolean), [{ id: "4", event: "message", data: "{\"a\":\n1}" }]);
});
