// A bot written against the client generated from the contract with default options: it
// must type-check with zero errors (tests/contract/test_generated_clients.py).
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Command = components["schemas"]["Turn"]["legal_commands"][number];
type Problem = components["schemas"]["ProblemBody"];

function choose(turn: components["schemas"]["Turn"]): Command {
  const forms = turn.legal_commands.filter((c) => c.type === "form_set");
  const options = forms.length > 0 ? forms : turn.legal_commands;
  return options[Math.floor(Math.random() * options.length)];
}

export async function play(baseUrl: string): Promise<number[]> {
  const anonymous = createClient<paths>({ baseUrl });
  const player = await anonymous.POST("/v1/players", { body: { name: "ts-bot" } });
  if (player.error) throw new Error(player.error.detail);
  const client = createClient<paths>({
    baseUrl, headers: { Authorization: `Bearer ${player.data.api_key}` },
  });
  const created = await client.POST("/v1/games", {
    body: {
      ruleset: { players: 4, end_mode: "quick" },
      bots: [{ level: "greedy" }, { level: "random" }, { level: "random" }],
    },
  });
  if (created.error) throw new Error(created.error.detail);
  const game_id = created.data.game_id;
  await client.POST("/v1/games/{game_id}/start", { params: { path: { game_id } } });
  for (;;) {
    const turn = await client.GET("/v1/games/{game_id}/turn", {
      params: { path: { game_id }, query: { timeout: 25 } },
    });
    if (turn.error) throw new Error(turn.error.detail);
    if (turn.data.status === "finished") {
      return turn.data.view?.winners ?? [];
    }
    if (turn.data.legal_commands.length === 0) continue;
    const posted = await client.POST("/v1/games/{game_id}/commands", {
      params: { path: { game_id } },
      headers: { "Idempotency-Key": crypto.randomUUID() },
      body: choose(turn.data),
    });
    const problem: Problem | undefined = posted.error;
    if (problem !== undefined && problem.code !== "not_your_decision") {
      throw new Error(`${problem.code}: ${problem.detail} (${problem.legal_commands?.length})`);
    }
  }
}
