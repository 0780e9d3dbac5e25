#!/usr/bin/env node
// `cya-bot play mybot.ts ...`: run a bot written as one function against the service (Node).
//
//     cya-bot play mybot.ts --server URL --key KEY --new 4p --bots greedy,random,random --games 20
//     cya-bot play mybot.ts --server URL --key KEY --join GAME
//     cya-bot play mybot.ts --server URL --key KEY --accept
//     cya-bot play mybot.ts --server URL --key KEY --seek 4p --rated --games 10
//     cya-bot play mybot.ts --server URL --key KEY --challenge PLAYER (or open)
//     cya-bot play mybot.ts --server URL --key KEY --accept-challenges
//
// Ctrl-C once: no new game, the games in play are played to their end; twice: those games are
// resigned (a bot of the game's timeout level takes the seat) and the runner stops.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import { Client, DEFAULT_URL } from "../client.js";
import { CountingFetch } from "../transport.js";
import { resultsTable } from "./results.js";
import { type Choose, defaultPlan, type GameRecord, type Plan, resignAll, Runner } from "./runner.js";

const USAGE = `usage: cya-bot play BOT (--new NP | --join GAME | --accept | --seek NP | --challenge PLAYER |
                    --accept-challenges) [options]

Run a bot written as one function, choose(view, legal), against the service.

  BOT                a module (.ts, .js, .mjs) exporting choose(view, legal)
  --function NAME    the function's name (choose)
  --server URL       the service (${DEFAULT_URL})
  --key KEY          your API key; without one a player is created and its key printed
  --name NAME        the new player's name (with no --key)
  --new NP           create games of N seats (2p..6p), you and --bots, and play them
  --join GAME        take a seat in GAME (if not yours yet) and play it
  --accept           play every game you are seated in and take open seats of public games
  --seek NP          quick play: be paired with other seekers for games of N seats (2p..6p)
  --challenge PLAYER challenge PLAYER (an id), or \`open\` for anyone: two players and --bots
  --accept-challenges  accept every challenge to you, and open ones, as they come
  --rated            --new, --seek, --challenge: rated games
  --bot-account      with no --key: create the player as a bot account
                     in the lobby, as they come
  --bots LEVELS      built-in bots for --new, comma-separated levels (random, greedy, expert,
                     ismcts: GET /v1/rulesets describes each); seats left over wait for players
  --games N          how many games (--new, --seek, --challenge: default 1; --accept,
                     --accept-challenges: stop after that many)
  --parallel N       games at once (default 1)
  --end-mode MODE    --new: when games end (quick)
  --edition NAME     --new: the edition (the server's default)
  --private          --new: private games
  --quiet            no progress line: a line per game started and finished
  --json             after the table, one JSON line: results, requests and game times

Ctrl-C once: finish the games in play, then stop; twice: resign them and stop.`;

const OPTIONS = {
  function: { type: "string", default: "choose" },
  server: { type: "string", default: DEFAULT_URL },
  key: { type: "string" },
  name: { type: "string" },
  new: { type: "string" },
  join: { type: "string" },
  accept: { type: "boolean", default: false },
  seek: { type: "string" },
  challenge: { type: "string" },
  "accept-challenges": { type: "boolean", default: false },
  rated: { type: "boolean", default: false },
  "bot-account": { type: "boolean", default: false },
  bots: { type: "string", default: "" },
  games: { type: "string" },
  parallel: { type: "string", default: "1" },
  "end-mode": { type: "string", default: "quick" },
  edition: { type: "string" },
  private: { type: "boolean", default: false },
  quiet: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

type Args = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

class UsageError extends Error {}

function players(text: string): number {
  const match = /^([2-6])p?$/.exec(text.trim());
  if (!match) throw new UsageError("--new: the number of seats, 2p to 6p");
  return Number(match[1]);
}

function count(text: string | undefined, name: string): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name}: a whole number`);
  return n;
}

export function planOf(args: Args): Plan {
  const modes = [args.new !== undefined, args.join !== undefined, args.accept, args.seek !== undefined,
    args.challenge !== undefined, args["accept-challenges"]].filter(Boolean).length;
  if (modes !== 1) throw new UsageError("one of --new, --join, --accept, --seek, --challenge or --accept-challenges");
  const seats = args.new === undefined ? null : players(args.new);
  const sought = args.seek === undefined ? null : players(args.seek);
  const bots = (args.bots ?? "").split(",").map((b) => b.trim()).filter(Boolean);
  if (seats !== null && bots.length > seats - 1) {
    throw new UsageError(`--bots: ${bots.length} bots do not fit ${seats} seats with you`);
  }
  if (args.challenge !== undefined && bots.length > 4) {
    throw new UsageError("--bots: a challenge seats two players and at most 4 bots");
  }
  const games = count(args.games, "--games");
  const asks = seats !== null || sought !== null || args.challenge !== undefined;
  return defaultPlan({
    new: seats !== null, players: seats ?? sought ?? 4, bots, endMode: args["end-mode"] ?? "quick", edition: args.edition ?? null,
    public: !args.private, join: args.join ?? null, accept: args.accept,
    parallel: Math.max(count(args.parallel, "--parallel") ?? 1, 1), games: games ?? (asks ? 1 : null),
    seek: sought !== null, rated: args.rated, challenge: args.challenge ?? null,
    acceptChallenges: args["accept-challenges"],
  });
}

/** The bot's function, from its module (a TypeScript one is compiled on the fly by tsx). */
export async function loadChoose(path: string, name = "choose"): Promise<Choose> {
  if (!existsSync(path)) throw new UsageError(`${path}: no such file`);
  const url = pathToFileURL(resolve(path)).href;
  // tsx's scoped import compiles the bot (and what it imports), ESM or CommonJS as its package
  // says, and leaves every other import to Node.
  const module = (/\.[cm]?tsx?$/.test(url)
    ? await import("tsx/esm/api").then(({ tsImport }) => tsImport(url, import.meta.url))
    : await import(url)) as Record<string, unknown>;
  const fallback = module.default as Record<string, unknown> | undefined;
  const found = module[name] ?? fallback?.[name] ?? (name === "choose" ? fallback : undefined);
  if (typeof found !== "function") throw new UsageError(`${path} exports no function ${name}(view, legal)`);
  return found as Choose;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  let args: Args;
  let plan: Plan;
  let choose: Choose;
  let name = "bot";
  try {
    const parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    args = parsed.values;
    if (args.help) {
      console.log(USAGE);
      return 0;
    }
    const [command, bot, ...rest] = parsed.positionals;
    if (command !== "play" || bot === undefined || rest.length) throw new UsageError("cya-bot play BOT ...");
    plan = planOf(args);
    choose = await loadChoose(bot, args.function ?? "choose");
    name = bot.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    console.error(`${USAGE}\n\ncya-bot: ${error.message}`);
    return 2;
  }
  const counted = new CountingFetch();
  const client = new Client(args.server ?? DEFAULT_URL, args.key ?? null, { fetch: counted.fetch });
  if (!args.key) {
    const created = await client.players.create(args.name ?? name, args["bot-account"]);
    client.apiKey = created.api_key;
    console.log(`Created player ${created.name} (${created.player_id}); its API key, shown once: ${created.api_key}`);
  }
  counted.clear();
  return play(client, choose, plan, args, counted);
}

async function play(client: Client, choose: Choose, plan: Plan, args: Args, counted: CountingFetch): Promise<number> {
  const live = !args.quiet && process.stderr.isTTY;
  const status = (text: string): void => {
    if (live) process.stderr.write(`\r\x1b[K${text}`);
  };
  const progress = (record?: GameRecord): string => {
    const wins = runner.results.filter((r) => r.won).length;
    const total = plan.games === null ? "" : `/${plan.games}`;
    const current = record ? `, game ${record.gameId.slice(0, 8)}: ${record.decisions} decisions` : "";
    return `playing: ${runner.results.length}${total} games, ${wins} won${current}`;
  };
  const runner: Runner = new Runner(client, choose, plan, {
    onStart: (record) => {
      if (args.quiet) console.log(`game ${record.gameId} started: seat ${record.seat}`);
    },
    onDecision: (record) => status(progress(record)),
    onResult: (result) => {
      status(progress());
      if (args.quiet) {
        console.log(`game ${result.gameId} finished: ${result.won ? "won" : "lost"}, $${result.score.toLocaleString("en-US")}`);
      }
    },
    onTrouble: (message, error) => {
      status("");
      console.error(message, error instanceof Error ? `: ${error.message}` : "");
    },
  });
  let interrupted = false;
  const onSigint = (): void => {
    const started = [...runner.games.values()].filter((g) => g.started).length;
    if (runner.stopping || !started) {
      interrupted = true;
      runner.abort();
      return;
    }
    runner.stop();
    status("");
    console.error(`Ctrl-C: finishing the ${started} game(s) in play, then stopping. Ctrl-C again resigns them.`);
  };
  process.on("SIGINT", onSigint);
  try {
    await runner.run();
  } finally {
    process.off("SIGINT", onSigint);
    status("");
    if (live) process.stderr.write("\n");
  }
  if (interrupted) await resignAll(client, runner, (line) => console.error(line));
  console.error(resultsTable(runner.results, runner));
  if (args.json) {
    const decisions = runner.results.reduce((n, r) => n + r.decisions, 0);
    const times = runner.results.flatMap((r) => (r.durationMs === null ? [] : [r.durationMs]));
    console.log(JSON.stringify({
      games: runner.results.length, wins: runner.results.filter((r) => r.won).length, decisions,
      errors: runner.errors + runner.results.reduce((n, r) => n + r.errors, 0),
      requests: counted.total, requests_by_route: Object.fromEntries(counted.requests),
      requests_per_decision: decisions ? Math.round((1000 * counted.total) / decisions) / 1000 : null,
      game_ms: times.map((t) => Math.round(t * 10) / 10), game_ms_median: median(times),
    }));
  }
  if (interrupted) return 130;
  return runner.errors + runner.results.reduce((n, r) => n + r.errors, 0) ? 1 : 0;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
