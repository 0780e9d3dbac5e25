// Players: create one (and its API key), who am I, and my news across all my games.
import type { News, PlayerCreated, PlayerOut } from "../models.js";
import { NewsReader, resumable } from "../streams.js";
import type { Call } from "../transport.js";
import { Area } from "./base.js";

/** The longest silence before a stream counts as dropped (heartbeats come every 15 s). */
export const NEWS_WAIT = 60;

export const newsAt = (last: string | null): Call => ({
  method: "GET", path: "/v1/players/me/events", params: { after: last },
  headers: { Accept: "application/x-ndjson" }, waits: NEWS_WAIT,
});

export class Players extends Area {
  /** A new player and its API key (shown once). The session keeps its own key: set
   * `client.apiKey` to play as the new player. `bot`: a bot account. */
  create(name?: string, bot = false): Promise<PlayerCreated> {
    const body = bot ? { name: name ?? "bot", bot: true } : name === undefined ? undefined : { name };
    return this.session.run({ method: "POST", path: "/v1/players", body });
  }

  me(): Promise<PlayerOut> {
    return this.session.run({ method: "GET", path: "/v1/players/me" });
  }

  /** Your news (`seated`, `game_started`, `your_turn` with the whole turn, `game_finished`)
   * as it happens, forever; resumes after a dropped connection. Abort `signal`, or leave the
   * `for await` loop, to close it. */
  news(options: { after?: string; signal?: AbortSignal } = {}): AsyncGenerator<News> {
    return resumable(this.session, newsAt, new NewsReader(), NEWS_WAIT, options.after ?? null, options.signal);
  }
}
