// The results table both runners print (the Python one is cya_client/bot/results.py): the win
// rate with its Wilson 95% interval, so a difference between two bots can be told from luck.
import type { GameResult } from "./plan.js";
import type { Runner } from "./runner.js";

/** Wilson score interval, 95%, of `wins` in `games` (the whole range when none). */
export function wilson(wins: number, games: number): [number, number] {
  if (!games) return [0, 1];
  const z = 1.959964;
  const p = wins / games;
  const centre = (p + (z * z) / (2 * games)) / (1 + (z * z) / games);
  const half = (z * Math.sqrt((p * (1 - p)) / games + (z * z) / (4 * games * games))) / (1 + (z * z) / games);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The results table, as the Python runner prints it. */
export function resultsTable(results: GameResult[], runner: Runner): string {
  const games = results.length;
  const wins = results.filter((r) => r.won).length;
  const errors = results.reduce((n, r) => n + r.errors, 0) + runner.errors +
    [...runner.games.values()].reduce((n, g) => n + g.errors, 0);
  const money = (n: number): string => `$${Math.round(n).toLocaleString("en-US")}`;
  const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const [low, high] = wilson(wins, games);
  const row = [
    String(games), String(wins), games ? percent(wins / games) : "-",
    games ? `${percent(low)} – ${percent(high)}` : "-",
    games ? money(results.reduce((n, r) => n + r.score, 0) / games) : "-",
    String(results.reduce((n, r) => n + r.decisions, 0)), String(errors),
  ];
  const head = ["games", "wins", "win rate", "95% interval", "average score", "decisions", "errors"];
  const widths = head.map((h, i) => Math.max(h.length, row[i]!.length));
  const line = (cells: string[]): string => `│ ${cells.map((c, i) => c.padStart(widths[i]!)).join(" │ ")} │`;
  const rule = (l: string, m: string, r: string): string => l + widths.map((w) => "─".repeat(w + 2)).join(m) + r;
  const title = "Results".padStart(Math.floor((rule("", "─", "").length + 7) / 2));
  return [title, rule("┌", "┬", "┐"), line(head), rule("├", "┼", "┤"), line(row), rule("└", "┴", "┘")].join("\n");
}
