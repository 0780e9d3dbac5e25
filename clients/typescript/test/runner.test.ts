// The runner and `cya-bot` against a real server: games played to their end at about one
// request a decision, --new meeting --accept, --seek meeting --seek, --challenge meeting
// --accept-challenges, and the two Ctrl-C semantics.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "../src/index.js";
import { defaultPlan, Runner } from "../src/bot/runner.js";
import { choose as randomChoose } from "../examples/random_bot.js";
import { SERVER, player } from "./server.js";

const at = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const CLI = at("../src/bot/cli.ts");

test("given the random example, the runner plays its games with no error at <= 1.2 requests a decision", async () => {
  const { client, counted } = await player("runner");
  const runner = new Runner(client, randomChoose, defaultPlan({ new: true, players: 4, bots: ["greedy", "random", "random"], games: 3 }));
  const results = await runner.run();
  assert.equal(results.length, 3);
  const decisions = results.reduce((n, r) => n + r.decisions, 0);
  assert.ok(decisions > 30);
  assert.deepEqual(results.map((r) => r.errors), [0, 0, 0]);
  assert.equal(runner.errors, 0);
  assert.equal(runner.games.size, 0);
  assert.ok(counted.total / decisions <= 1.2, `${counted.total} requests for ${decisions} decisions`);
  assert.equal(counted.requests.get("GET /v1/games/{game_id}/turn") ?? 0, 0, "turns come with the news");
});

test("given the runner's other loop, playByTurns plays a game with GET /turn and commands", async () => {
  const { client } = await player("turns");
  const game = await client.games.create({ ruleset: { players: 2, end_mode: "quick" }, bots: [{ level: "random" }] });
  await client.games.start(game.game_id);
  const runner = new Runner(client, randomChoose, defaultPlan({}));
  const result = await runner.playByTurns(game.game_id, 0);
  assert.ok(result.decisions > 5);
  assert.equal(result.errors, 0);
});

interface Bot {
  child: ChildProcessWithoutNullStreams;
  out: string[];
  exited: Promise<number | null>;
  waitFor(pattern: RegExp): Promise<string>;
}

function cyaBot(args: string[]): Bot {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "play", ...args, "--server", SERVER, "--quiet"]);
  const out: string[] = [];
  const waiters: [RegExp, (line: string) => void][] = [];
  const take = (chunk: Buffer): void => {
    for (const line of chunk.toString().split("\n")) {
      out.push(line);
      for (const [pattern, resolve] of waiters) if (pattern.test(line)) resolve(line);
    }
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const waitFor = (pattern: RegExp): Promise<string> => {
    const found = out.find((line) => pattern.test(line));
    return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiters.push([pattern, resolve]));
  };
  return { child, out, exited, waitFor };
}

/** The key a cya-bot without --key printed for the player it created. */
async function createdKey(bot: Bot): Promise<string> {
  return /shown once: (\S+)/.exec(await bot.waitFor(/^Created player/))![1]!;
}

async function onlyGame(key: string): Promise<string> {
  const client = new Client(SERVER, key);
  for (;;) {
    const page = await client.games.list({ mine: true });
    if (page.games.length) return page.games[0]!.game_id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("given cya-bot --new with an open seat, a cya-bot --join takes it and both play it to the end", async () => {
  const creator = cyaBot([at("../examples/greedy_bot.ts"), "--new", "2p", "--games", "1"]);
  const gameId = await onlyGame(await createdKey(creator));
  const joiner = cyaBot([at("../examples/random_bot.ts"), "--join", gameId]);
  assert.equal(await creator.exited, 0, creator.out.join("\n"));
  assert.equal(await joiner.exited, 0, joiner.out.join("\n"));
  for (const bot of [creator, joiner]) {
    assert.ok(bot.out.some((l) => l.startsWith(`game ${gameId} finished`)), bot.out.join("\n"));
    assert.ok(bot.out.some((l) => /│\s+1 │/.test(l)), "the results table counts one game");
  }
});

test("given cya-bot --accept, it plays the game it is seated in", async () => {
  const { client } = await player("accepting");
  const game = await client.games.create({ ruleset: { players: 2, end_mode: "quick" }, bots: [{ level: "random" }], public: false });
  const bot = cyaBot([at("../examples/random_bot.ts"), "--accept", "--games", "1", "--key", client.apiKey!]);
  await client.games.start(game.game_id);
  assert.equal(await bot.exited, 0, bot.out.join("\n"));
  assert.ok(bot.out.some((l) => l.startsWith(`game ${game.game_id} finished`)), bot.out.join("\n"));
});

function finishedGame(bot: Bot): string {
  const line = bot.out.find((l) => / finished: /.test(l));
  assert.ok(line, bot.out.join("\n"));
  return line.split(" ")[1]!;
}

test("given two cya-bot --seek 2p --rated, they meet in one rated game and play it to the end", async () => {
  const [ann, bob] = [await player("ann"), await player("bob")];
  const mode = ["--seek", "2p", "--rated", "--edition", "de_2024", "--games", "1"];
  const bots = [ann, bob].map(({ client }) => cyaBot([at("../examples/random_bot.ts"), ...mode, "--key", client.apiKey!]));
  for (const bot of bots) assert.equal(await bot.exited, 0, bot.out.join("\n"));
  const [first, second] = bots.map(finishedGame);
  assert.equal(first, second);
  const game = (await ann.client.games.get(first!)).summary;
  assert.ok(game.rated && game.status === "finished");
});

test("given cya-bot --challenge PLAYER, a cya-bot --accept-challenges takes it and both play it", async () => {
  const [ann, bob] = [await player("ann"), await player("bob")];
  const taker = cyaBot([at("../examples/random_bot.ts"), "--accept-challenges", "--games", "1", "--key", bob.client.apiKey!]);
  const bobId = (await bob.client.players.me()).player_id;
  const maker = cyaBot([at("../examples/greedy_bot.ts"), "--challenge", bobId, "--bots", "random", "--key", ann.client.apiKey!]);
  assert.equal(await maker.exited, 0, maker.out.join("\n"));
  assert.equal(await taker.exited, 0, taker.out.join("\n"));
  assert.equal(finishedGame(maker), finishedGame(taker));
  assert.equal((await ann.client.games.get(finishedGame(maker))).summary.players, 3);
});

const SLOW = [at("fixtures/slow_bot.ts"), "--new", "4p", "--bots", "random,random,random", "--games", "5"];

test("given Ctrl-C once, the game in play is finished and no new game starts", async () => {
  const bot = cyaBot(SLOW);
  await bot.waitFor(/ started: seat/);
  bot.child.kill("SIGINT");
  assert.equal(await bot.exited, 0, bot.out.join("\n"));
  assert.ok(bot.out.some((l) => l.startsWith("Ctrl-C: finishing the 1 game(s) in play")));
  assert.equal(bot.out.filter((l) => / started: seat/.test(l)).length, 1);
  assert.equal(bot.out.filter((l) => / finished: /.test(l)).length, 1);
});

test("given Ctrl-C twice, the game in play is resigned to a bot, which plays it to the end", async () => {
  const bot = cyaBot(SLOW);
  const key = await createdKey(bot);
  const gameId = /^game (\S+) started/.exec(await bot.waitFor(/ started: seat/))![1]!;
  bot.child.kill("SIGINT");
  await bot.waitFor(/^Ctrl-C: finishing/);
  bot.child.kill("SIGINT");
  assert.equal(await bot.exited, 130, bot.out.join("\n"));
  assert.ok(bot.out.some((l) => l.startsWith(`resigned game ${gameId}: a bot plays seat 0`)), bot.out.join("\n"));
  assert.ok(!bot.out.some((l) => / finished: /.test(l)));
  const watcher = new Client(SERVER, key);
  for (;;) { // the bot that took the seat plays on to the end
    const view = await watcher.play.view(gameId, { waitForVersion: 10 ** 8, timeout: 20 });
    if (view.status === "finished") break;
  }
  const seats = (await watcher.games.get(gameId)).summary.seats;
  assert.equal(seats[0]!.kind, "bot");
});
