// The two streams as async generators that resume: a player's news (NDJSON) and a game's
// events (Server-Sent Events), read with `fetch`. A dropped connection, or one silent for
// longer than heartbeats allow, is reopened after the last item's id (`?after=` /
// `Last-Event-ID`); heartbeats are skipped; a 429 or 503 on reopening waits its `Retry-After`.
import type { News, StreamEvent } from "./models.js";
import { ProblemError } from "./problems.js";
import { type Call, RETRYABLE_STATUS, type RetryPolicy, type Session, retryWait, sleep } from "./transport.js";

/** A stream could not be reopened within the retry policy's attempts. */
export class StreamLost extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StreamLost";
  }
}

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/** Server-Sent Events, line by line (the WHATWG rules a client needs: comments, `id`,
 * `event`, multi-line `data`, dispatch on a blank line). */
export class SseParser {
  private data: string[] = [];
  private event = "";
  private id: string | null = null;

  feed(line: string): SseMessage | null {
    if (!line) {
      if (!this.data.length) {
        this.event = "";
        return null;
      }
      const message = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
      this.data = [];
      this.event = "";
      return message;
    }
    if (line.startsWith(":")) return null; // a comment: the heartbeat
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id" && !value.includes("\0")) this.id = value;
    return null;
  }
}

/** Turns one connection's lines into items and their resume ids. */
export interface Reader<T> {
  connected(): void;
  feed(line: string): [T, string] | null;
  /** The item after which the stream ends. */
  done(item: T): boolean;
}

export class NewsReader implements Reader<News> {
  connected(): void {}

  feed(line: string): [News, string] | null {
    if (!line.trim()) return null; // a heartbeat
    const news = JSON.parse(line) as News;
    return [news, news.id];
  }

  done(): boolean {
    return false;
  }
}

export class EventReader implements Reader<StreamEvent> {
  private parser = new SseParser();

  connected(): void {
    this.parser = new SseParser();
  }

  feed(line: string): [StreamEvent, string] | null {
    const message = this.parser.feed(line);
    if (message === null || message.event !== "message") return null;
    const item = JSON.parse(message.data) as StreamEvent;
    return [item, message.id ?? String(item.version)];
  }

  done(item: StreamEvent): boolean {
    return item.event.type === "game_ended";
  }
}

/** The lines of a body as they arrive; a silence longer than `idleSeconds` ends it with an
 * error (the connection is taken for dropped). */
export async function* linesOf(body: ReadableStream<Uint8Array>, idleSeconds: number): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StreamLost(`silent for ${idleSeconds} s`)), idleSeconds * 1000);
      });
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await Promise.race([reader.read(), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) break;
      buffered += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        yield line.endsWith("\r") ? line.slice(0, -1) : line;
      }
    }
    if (buffered) yield buffered;
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** After a lost connection: how long to wait before reopening; throws when it is time to give
 * up, or the error is not one to retry. */
class Reconnects {
  failures = 0;
  constructor(private readonly policy: RetryPolicy) {}

  wait(error: unknown): number {
    let retryAfter: number | null = null;
    if (error instanceof ProblemError) {
      if (!RETRYABLE_STATUS.has(error.status)) throw error;
      retryAfter = error.retryAfter;
    }
    this.failures += 1;
    if (this.failures >= this.policy.attempts) {
      throw new StreamLost(`gave up after ${this.failures} attempts`, { cause: error });
    }
    if (retryAfter !== null) return Math.min(retryAfter, this.policy.maxRetryAfter);
    return this.failures === 1 ? 0 : retryWait(this.policy, this.failures - 1);
  }
}

/** A stream that reopens where it stopped. `openAt(last)` is the call after item id `last`;
 * `signal` ends it (the generator returns). */
export async function* resumable<T>(
  session: Session, openAt: (last: string | null) => Call, reader: Reader<T>,
  idleSeconds: number, last: string | null = null, signal?: AbortSignal,
): AsyncGenerator<T> {
  const reconnects = new Reconnects(session.retry);
  while (!signal?.aborted) {
    let error: unknown = null;
    // Each connection has its own controller, so that leaving the loop early (a `break` in
    // the caller's `for await`) closes the connection too.
    const connection = new AbortController();
    const stop = (): void => connection.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      const response = await session.open(openAt(last), connection.signal);
      reader.connected();
      for await (const line of linesOf(response.body!, idleSeconds)) {
        const found = reader.feed(line);
        if (found === null) continue;
        [, last] = found;
        reconnects.failures = 0;
        yield found[0];
        if (reader.done(found[0])) return;
      }
    } catch (lost) {
      if (signal?.aborted) return;
      error = lost;
    } finally {
      signal?.removeEventListener("abort", stop);
      connection.abort();
    }
    try {
      await sleep(reconnects.wait(error), signal);
    } catch (given) {
      if (signal?.aborted) return;
      throw given;
    }
  }
}
