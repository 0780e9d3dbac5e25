// Follow a game: its log as you may see it, by page or as a live stream that resumes.
import type { EventPage, StreamEvent } from "../models.js";
import { EventReader, resumable } from "../streams.js";
import type { Call } from "../transport.js";
import { Area, gamePath } from "./base.js";

/** The longest silence before a stream counts as dropped (heartbeats come every 15 s). */
export const STREAM_WAIT = 60;

export class Follow extends Area {
  /** A page of the log after version `after`. */
  events(gameId: string, after = 0, limit?: number): Promise<EventPage> {
    return this.session.run({ method: "GET", path: gamePath(gameId, "/events"), params: { after, limit } });
  }

  /** The events after version `after` as they happen, until `game_ended`; resumes with
   * `Last-Event-ID` after a dropped connection. */
  stream(gameId: string, options: { after?: number; signal?: AbortSignal } = {}): AsyncGenerator<StreamEvent> {
    const after = options.after ?? 0;
    const openAt = (last: string | null): Call => ({
      method: "GET", path: gamePath(gameId, "/events"), waits: STREAM_WAIT,
      headers: { Accept: "text/event-stream", "Last-Event-ID": last ?? String(after) },
    });
    return resumable(this.session, openAt, new EventReader(), STREAM_WAIT, null, options.signal);
  }
}
