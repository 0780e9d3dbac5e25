// The one session every client talks through: authentication, idempotency keys, safe retries
// and decoding, over `fetch` (Node 20 or a browser; pass your own `fetch` to count or proxy).
//
// Retries (`RetryPolicy`): a 429 or 503 is retried after its `Retry-After` (or a backoff); a
// network error is retried when resending is safe: a read (GET), a write that carries an
// `Idempotency-Key` (every command and lobby write gets one, the same for all its attempts),
// or a request that never reached the server (the connection was refused).
import { problemOf } from "./problems.js";

export const USER_AGENT = "cya-client-ts/0.1";
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 503]);

/** How often and how long to retry. `attempts` counts the first try; times in seconds. */
export interface RetryPolicy {
  attempts: number;
  /** The first wait after a network error; doubles each time. */
  backoff: number;
  maxBackoff: number;
  /** The longest `Retry-After` honoured by waiting. */
  maxRetryAfter: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, backoff: 0.25, maxBackoff: 8, maxRetryAfter: 60 };
export const NO_RETRIES: RetryPolicy = { ...DEFAULT_RETRY, attempts: 1 };

/** Seconds to wait before attempt `attempt + 1` (attempts count from 1). */
export function retryWait(policy: RetryPolicy, attempt: number, retryAfter: number | null = null): number {
  if (retryAfter !== null) return Math.min(retryAfter, policy.maxRetryAfter);
  const base = Math.min(policy.backoff * 2 ** (attempt - 1), policy.maxBackoff);
  return base * (0.5 + Math.random() / 2); // jitter: retrying clients spread out
}

export type Params = Record<string, string | number | boolean | null | undefined>;

/** One route, as a request and how to read its answer. */
export interface Call {
  method: "GET" | "POST" | "DELETE";
  path: string;
  params?: Params;
  body?: unknown;
  headers?: Record<string, string>;
  /** Give it an `Idempotency-Key`, the same for every attempt. */
  idempotent?: boolean;
  /** The server may hold the answer this long, in seconds (a long poll). */
  waits?: number;
  /** The statuses that are answers (default 200 and 201); others raise their problem. */
  ok?: readonly number[];
  retry?: boolean;
  /** How to read the answer: JSON (default), text, or nothing (`null` for a 204 or 304). */
  read?: "json" | "text" | "none";
}

/** The `fetch` a session calls (the global one by default): always a URL string and an init. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface SessionOptions {
  retry?: RetryPolicy;
  /** Seconds a request may take beyond what the server is told it may wait. */
  timeout?: number;
  fetch?: Fetch;
}

export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (crypto?.randomUUID) return crypto.randomUUID().replaceAll("-", "");
  const bytes = new Uint8Array(16); // a page served over plain http has no randomUUID
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const sleep = (seconds: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** True for an error `fetch` raised before any byte reached the server. */
function neverSent(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code === "ECONNREFUSED";
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

export class Session {
  readonly baseUrl: string;
  apiKey: string | null;
  readonly retry: RetryPolicy;
  readonly timeout: number;
  private readonly fetcher: Fetch;

  constructor(baseUrl: string, apiKey: string | null = null, options: SessionOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.apiKey = apiKey;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.timeout = options.timeout ?? 30;
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  url(call: Call): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(call.params ?? {})) {
      if (value !== null && value !== undefined) query.set(name, String(value));
    }
    const text = query.toString();
    return `${this.baseUrl}${call.path}${text ? `?${text}` : ""}`;
  }

  headers(call: Call): Record<string, string> {
    const out: Record<string, string> = { Accept: "application/json" };
    if (typeof window === "undefined") out["User-Agent"] = USER_AGENT; // browsers set their own
    if (this.apiKey) out.Authorization = `Bearer ${this.apiKey}`;
    if (call.body !== undefined) out["Content-Type"] = "application/json";
    return { ...out, ...call.headers };
  }

  /** Send `call` (retrying as the policy allows) and read its answer. */
  async run<T>(call: Call, idempotencyKey?: string, signal?: AbortSignal): Promise<T> {
    const headers = this.headers(call);
    if (call.idempotent) headers["Idempotency-Key"] = idempotencyKey ?? newIdempotencyKey();
    const safe = call.method === "GET" || "Idempotency-Key" in headers;
    const retry = call.retry ?? true;
    const ok = call.ok ?? [200, 201];
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.send(call, headers, signal);
      } catch (error) {
        const again = retry && !signal?.aborted && (safe || neverSent(error));
        if (!again || attempt >= this.retry.attempts) throw error;
        await sleep(retryWait(this.retry, attempt), signal);
        continue;
      }
      if (ok.includes(response.status)) return (await read(call, response)) as T;
      if (retry && RETRYABLE_STATUS.has(response.status) && attempt < this.retry.attempts) {
        const problem = await problemOf(response);
        await sleep(retryWait(this.retry, attempt, problem.retryAfter), signal);
        continue;
      }
      throw await problemOf(response);
    }
  }

  /** An open streaming answer, its status checked (a problem raises). The caller reads the
   * body and may abort it with `signal`. */
  async open(call: Call, signal?: AbortSignal): Promise<Response> {
    const response = await this.fetcher(this.url(call), {
      method: call.method, headers: this.headers(call), signal,
    });
    if ((call.ok ?? [200]).includes(response.status)) return response;
    throw await problemOf(response);
  }

  private async send(call: Call, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const limit = AbortSignal.timeout((this.timeout + (call.waits ?? 0)) * 1000);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    try {
      return await this.fetcher(this.url(call), {
        method: call.method, headers, body,
        signal: signal ? anyOf(signal, limit) : limit,
      });
    } catch (error) {
      if (isAbort(error) && signal?.aborted) throw signal.reason ?? error;
      throw error;
    }
  }
}

/** A signal aborted with the first of two (`AbortSignal.any`, where the runtime has it). */
function anyOf(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([a, b]);
  const both = new AbortController();
  for (const one of [a, b]) {
    if (one.aborted) both.abort(one.reason);
    else one.addEventListener("abort", () => both.abort(one.reason), { once: true });
  }
  return both.signal;
}

async function read(call: Call, response: Response): Promise<unknown> {
  const kind = call.read ?? "json";
  if (kind === "none" || response.status === 204 || response.status === 304) {
    await response.body?.cancel();
    return null;
  }
  return kind === "text" ? response.text() : response.json();
}

/** A `fetch` that counts the requests sent, by `METHOD /path` with ids as `{id}`, and the
 * statuses answered: a bot's request budget (`new Client(url, key, { fetch: counted.fetch })`). */
export class CountingFetch {
  readonly requests = new Map<string, number>();
  readonly statuses = new Map<number, number>();
  readonly fetch: Fetch;

  constructor(inner: Fetch = globalThis.fetch.bind(globalThis)) {
    this.fetch = async (url, init) => {
      const route = `${init.method ?? "GET"} ${routeOf(new URL(url).pathname)}`;
      this.requests.set(route, (this.requests.get(route) ?? 0) + 1);
      const response = await inner(url, init);
      this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
      return response;
    };
  }

  get total(): number {
    let sum = 0;
    for (const n of this.requests.values()) sum += n;
    return sum;
  }

  clear(): void {
    this.requests.clear();
    this.statuses.clear();
  }
}

export function routeOf(path: string): string {
  const parts = path.split("/");
  if (parts.length > 3 && parts[1] === "v1" && parts[2] === "games") parts[3] = "{game_id}";
  return parts.join("/");
}
