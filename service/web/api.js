// Every call this client makes to the service, in one place. The rest of the client never
// calls fetch: it asks this module, which adds the key, retries what is safe to retry and
// turns problem+json answers into ApiError.
import { receipts, session } from './store.js';
import { t } from './i18n.js';

const BASE = '/v1';

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || t('api.status', { status }));
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code;
  }
}

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); });
});

// `key` undefined: the player's own; null: none (anonymous).
function headers(extra = {}, key = undefined) {
  const h = { Accept: 'application/json', ...extra };
  if (key === undefined) key = session.key();
  if (key) h.Authorization = `Bearer ${key}`;
  return h;
}

// One request. `retry` is for calls that are safe to send again: reads, and commands with an
// Idempotency-Key (the server answers a resent one with its first result). They ride out a
// restarting server (network errors, 503) and 429s, as the Retry-After header asks.
async function call(method, path, { body, extra, retry = method === 'GET', signal, raw, key, wait429 = true } = {}) {
  const init = { method, headers: headers(extra, key), signal };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      res = await fetch(BASE + path, init);
    } catch (err) {
      if (signal?.aborted || !retry || attempt >= 8) throw err;
      await sleep(Math.min(250 * 2 ** attempt, 4000), signal);
      continue;
    }
    if ((res.status === 429 && wait429 || res.status === 503 && retry) && attempt < 8) {
      await sleep(Math.min(Number(res.headers.get('Retry-After')) || 1, 10) * 1000, signal);
      continue;
    }
    if (!res.ok) {
      const problem = await res.json().catch(() => null);
      throw new ApiError(res.status, problem);
    }
    if (raw) {
      const receipt = res.headers.get('Cya-Receipt'); // the history's, in a header
      if (receipt) receipts.keep(JSON.parse(receipt));
      const text = await res.text();
      return raw === 'with-salt' ? { text, salt: res.headers.get('Cya-Receipt-Salt') } : text;
    }
    const answer = await res.json();
    receipts.keep(answer?.receipt); // command answers, event pages, turns
    return answer;
  }
}

const qs = (params) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== null) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

const once = () => ({ 'Idempotency-Key': crypto.randomUUID() });
// The seat's client seed: 32 bytes from the browser's CSPRNG, base64, sent with the seat so
// that the seat adds to the deal's randomness (docs/fair-shuffle.md §7).
export const clientSeed = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
// The rule catalogue (card names, rule options) does not change while a page is open.
let catalogue = null;
const game = (id) => `/games/${encodeURIComponent(id)}`;

export const api = {
  createPlayer: (name) => call('POST', '/players', { body: { name } }),
  me: () => call('GET', '/players/me'),
  rulesets: () => (catalogue ??= call('GET', '/rulesets').catch((err) => { catalogue = null; throw err; })),
  games: (filters = {}, opts) => call('GET', `/games${qs(filters)}`, opts),
  createGame: (body) => call('POST', '/games', { body: body.join === false ? body : { client_seed: clientSeed(), ...body } }),
  game: (id, opts) => call('GET', game(id), opts),
  join: (id) => call('POST', `${game(id)}/seats`, { body: { client_seed: clientSeed() } }),
  start: (id) => call('POST', `${game(id)}/start`),
  leave: (id) => call('POST', `${game(id)}/leave`, { extra: once(), retry: true }),
  resign: (id) => call('POST', `${game(id)}/resign`, { extra: once(), retry: true }),
  // The seat's view and legal commands at one version, answered at once (`timeout=0`).
  turn: (id) => call('GET', `${game(id)}/turn?timeout=0`),
  // A command carries a fresh Idempotency-Key, so a retry after a dropped answer can never
  // act twice.
  // With the turn after it (view and legal commands): the table draws it without a GET /turn.
  command: (id, command) => call('POST', `${game(id)}/commands?turn=true`, { body: command, extra: once(), retry: true }),
  events: (id, after = 0, limit = 500) => call('GET', `${game(id)}/events${qs({ after, limit })}`),
  state: (id, version) => call('GET', `${game(id)}/state${qs({ version })}`),
  verify: (id) => call('GET', `${game(id)}/verify`),
  // Once a game is over: the rematch (the one already offered, if any).
  rematch: (id) => call('POST', `${game(id)}/rematch`, { extra: once(), retry: true }),
  // A preset reaction; a 429 (too soon) is the answer to show, not one to wait out.
  react: (id, reaction) => call('POST', `${game(id)}/reactions`, { body: { reaction }, extra: once(), retry: true, wait429: false }),
  // Quick play: seek a game of a kind, then read the seek until it is matched.
  seek: (body) => call('POST', '/matchmaking', { body, extra: once(), retry: true }),
  seekStatus: (id) => call('GET', `/matchmaking/${encodeURIComponent(id)}`),
  cancelSeek: (id) => call('DELETE', `/matchmaking/${encodeURIComponent(id)}`),
  // NDJSON: one history line per event, each `data` the stored JSON text.
  history: async (id) => (await call('GET', `${game(id)}/history`, { raw: true }))
    .split('\n').filter(Boolean).map((line) => JSON.parse(line)),
  // The history as sent, with its receipt salt (a header): checked in the browser, saved.
  historyFile: (id) => call('GET', `${game(id)}/history`, { raw: 'with-salt' }),
  receiptKeys: () => call('GET', '/receipt-keys'),
};

// A cold load of a table: the router asks for what the table shows first while the table's
// modules are still loading, and the table takes those answers (once) instead of asking.
const early = new Map();
export function prefetchTable(id) {
  const asked = { game: api.game(id), turn: api.turn(id), rulesets: api.rulesets() };
  // Whoever takes them handles their failures; an answer nobody takes is no error.
  Object.values(asked).forEach((p) => p.catch(() => {}));
  early.set(id, asked);
}
export function prefetched(id) {
  const asked = early.get(id);
  early.delete(id);
  return asked;
}

// Follow a game's events as Server-Sent Events. EventSource cannot send the Authorization
// header, so this reads the stream with fetch. `onEvents(batch)` gets each chunk's events
// (`{version, event}`) at once, so a burst of bot moves costs one redraw. After a dropped
// connection or a server restart it reconnects with backoff and `Last-Event-ID`, so nothing
// is missed or repeated. It ends after `game_ended` (the server closes the stream there),
// on a 4xx other than 429, or when `signal` aborts.
export async function followEvents(id, lastId, onEvents, { signal, key, onStatus = () => {} } = {}) {
  let backoff = 250;
  while (!signal.aborted) {
    let ended = false;
    try {
      const extra = { Accept: 'text/event-stream' };
      if (lastId) extra['Last-Event-ID'] = String(lastId);
      const res = await fetch(`${BASE}${game(id)}/events`, { headers: headers(extra, key), signal });
      if (!res.ok) {
        const problem = await res.json().catch(() => null);
        if (res.status < 500 && res.status !== 429) throw new ApiError(res.status, problem);
        throw new Error(`stream answered ${res.status}`);
      }
      onStatus('live');
      backoff = 250;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        // Events end with a blank line; lines end with CRLF, LF or CR (the server sends CRLF).
        const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
        buffer = blocks.pop();
        const batch = [];
        for (const block of blocks) {
          const data = block.split(/\r\n|\r|\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
          if (!data) continue; // a heartbeat comment
          const item = JSON.parse(data);
          lastId = item.version;
          receipts.keep(item.receipt);
          batch.push(item);
          if (item.event.type === 'game_ended') ended = true;
        }
        if (batch.length) onEvents(batch);
      }
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ApiError) { onStatus('closed', err); return; }
    }
    if (ended) { onStatus('ended'); return; }
    onStatus('reconnecting');
    await sleep(backoff, signal).catch(() => {});
    backoff = Math.min(backoff * 2, 5000);
  }
}
