// The client against a real server: each area, typed problems from real answers, idempotency
// keys, and both streams resuming where they stopped.
import assert from "node:assert/strict";
import { before, test } from "node:test";

import {
  type Client, type Command, GameNotFound, NotCreator, NotSeated, RuleViolation, StaleVersion, Unauthorized,
  type News, type StreamEvent, type Turn,
} from "../src/index.js";
import { Client as Bare } from "../src/client.js";
import { SERVER, newGame, player } from "./server.js";

let ann: Client;
let bob: Client;
let gameId: string; // ann and bob, two seats, dealt

/** The client whose decision it is in `gameId`, and its turn. */
async function awaited(): Promise<[Client, Turn]> {
  for (const client of [ann, bob]) {
    const turn = await client.play.turn(gameId, 0);
    if (turn.legal_commands.length) return [client, turn];
  }
  throw new Error("nobody's decision");
}

before(async () => {
  ann = (await player("ann")).client;
  bob = (await player("bob")).client;
  const game = await ann.games.create(newGame(2, []));
  await bob.games.join(game.game_id);
  await ann.games.start(game.game_id);
  gameId = game.game_id;
});

test("given a new player, me() answers its id and the catalogue lists bot levels", async () => {
  const { client } = await player("carol");
  const me = await client.players.me();
  assert.match(me.player_id, /^[0-9a-f]+$/);
  const catalogue = await client.rulesets.catalogue();
  assert.ok(JSON.stringify(catalogue).includes("greedy"));
  assert.equal((await client.ops.health()).status, "ok");
  assert.ok((await client.ops.metrics()).includes("# TYPE"));
});

test("given a turn, a command sent with If-Match commits once; the same key replays it", async () => {
  const [client, turn] = await awaited();
  const command = turn.legal_commands[0]!;
  const first = await client.play.send(gameId, command, { ifMatch: turn.version, idempotencyKey: "k-one" });
  assert.equal(first.committed, true);
  assert.ok(first.version > turn.version);
  const again = await client.play.send(gameId, command, { ifMatch: turn.version, idempotencyKey: "k-one" });
  assert.equal(again.replayed, true);
  assert.equal(again.version, first.version);
});

test("given an old version, the command is refused as StaleVersion with the current one", async () => {
  const [client, turn] = await awaited();
  await assert.rejects(client.play.send(gameId, turn.legal_commands[0]!, { ifMatch: turn.version - 1 }),
    (error: unknown) => error instanceof StaleVersion && error.currentVersion === turn.version);
});

test("given a command the rules refuse, RuleViolation names the rule and lists the legal commands", async () => {
  const [client] = await awaited();
  const bogus = { type: "discard", card: "nothing#0" } as Command;
  await assert.rejects(client.play.send(gameId, bogus), (error: unknown) => {
    assert.ok(error instanceof RuleViolation);
    assert.ok(error.rule);
    assert.ok(error.legalCommands.length > 0);
    return true;
  });
});

test("given the wrong player, key or game, each problem is its own class", async () => {
  const { client: carol } = await player("carol");
  await assert.rejects(carol.play.turn(gameId, 0), NotSeated);
  const lobby = await ann.games.create(newGame(3, []));
  await assert.rejects(carol.games.start(lobby.game_id), NotCreator);
  await assert.rejects(ann.games.get("no-such-game"), GameNotFound);
  await assert.rejects(new Bare(SERVER, "not-a-key").players.me(), Unauthorized);
});

test("given the same Idempotency-Key, creating a game twice makes one game", async () => {
  const game = newGame(3, ["random"]);
  const first = await ann.games.create(game, { idempotencyKey: "same-game" });
  const second = await ann.games.create(game, { idempotencyKey: "same-game" });
  assert.equal(second.game_id, first.game_id);
  const listed = await ann.games.list({ mine: true, status: "lobby" });
  assert.ok(listed.games.some((g) => g.game_id === first.game_id));
});

test("given a finished game, its event stream ends at game_ended and resumes after a version", async () => {
  const game = await ann.games.create(newGame(2, ["random"], { join: false, bots: [{ level: "random" }, { level: "random" }] }));
  await ann.games.start(game.game_id);
  const events: StreamEvent[] = [];
  for await (const item of ann.follow.stream(game.game_id)) events.push(item);
  assert.equal(events.at(-1)!.event.type, "game_ended");
  assert.deepEqual(events.map((e) => e.version), events.map((_, i) => i + 1));
  const resumed: number[] = [];
  for await (const item of ann.follow.stream(game.game_id, { after: 5 })) resumed.push(item.version);
  assert.deepEqual(resumed, events.slice(5).map((e) => e.version));
  const page = await ann.follow.events(game.game_id, 0, 3);
  assert.equal(page.events.length, 3);
  assert.equal((await ann.audit.verify(game.game_id)).ok, true);
});

test("given a player's news, it tells of every game and resumes after the last id read", async () => {
  const { client: dan } = await player("dan");
  const game = await dan.games.create(newGame(2, ["random"]));
  const controller = new AbortController();
  const seen: News[] = [];
  for await (const news of dan.players.news({ signal: controller.signal })) {
    seen.push(news);
    if (news.type === "seated") await dan.games.start(game.game_id);
    if (news.type === "your_turn") break; // leaving the loop closes the stream
  }
  assert.deepEqual(seen.map((n) => n.type).slice(0, 2), ["seated", "game_started"]);
  const last = seen.at(-1)! as Extract<News, { type: "your_turn" }>;
  const turn = last.turn;
  await dan.play.send(game.game_id, turn.legal_commands[0]!, { ifMatch: turn.version });
  for await (const news of dan.players.news({ after: last.id, signal: controller.signal })) {
    assert.ok("game_id" in news && "version" in news, `a game's news: ${news.type}`);
    assert.equal(news.game_id, game.game_id);
    assert.ok(news.version > last.version, "nothing older than the last id read comes again");
    break;
  }
  controller.abort();
  await dan.games.resign(game.game_id);
});

test("given a connection that drops mid-stream, the stream reopens after the last event, none lost or repeated", async () => {
  const { client } = await player("eve");
  const game = await client.games.create(newGame(2, [], { join: false, bots: [{ level: "random" }, { level: "random" }] }));
  await client.games.start(game.game_id);
  let opened = 0;
  // The first answer is cut after 2 KB, as a dropped connection cuts it.
  const dropping = async (url: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (!url.includes("/events") || opened++ > 0) return response;
    const reader = response.body!.getReader();
    let sent = 0;
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done || sent > 2048) {
          await reader.cancel();
          controller.error(new TypeError("terminated"));
          return;
        }
        sent += value.length;
        controller.enqueue(value);
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
  const watcher = new Bare(SERVER, client.apiKey, { fetch: dropping });
  const events: StreamEvent[] = [];
  for await (const item of watcher.follow.stream(game.game_id)) events.push(item);
  assert.equal(opened, 2, "reopened once");
  assert.deepEqual(events.map((e) => e.version), events.map((_, i) => i + 1));
  assert.equal(events.at(-1)!.event.type, "game_ended");
});
