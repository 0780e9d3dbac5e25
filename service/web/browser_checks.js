// A game's history checked in this browser with WebCrypto alone (SHA-256, HMAC, Ed25519), not
// by asking the server: the hash chain (docs/receipts.md, `HistoryLine.hash`), the seeds of
// the deal and every revealed round seed (docs/fair-shuffle.md §4, §7), and the receipts this
// browser kept against the server's public keys. The shuffles and the rules are the server's
// /verify and the offline `cya-verify` (docs/audit.md).
import { t } from './i18n.js';

const enc = new TextEncoder();
const subtle = () => globalThis.crypto.subtle;
const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text) => Uint8Array.from(text.match(/../g) || [], (b) => parseInt(b, 16));
const unbase64 = (text) => Uint8Array.from(atob(text || ''), (c) => c.charCodeAt(0));
const sha256 = async (bytes) => hex(await subtle().digest('SHA-256', bytes));
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
async function hmac(key, message) {
  const k = await subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', k, message));
}

// The history's lines as sent, each with `rawData`: its `data` exactly as the bytes the hash
// covers (the last field of the line; no string before it can hold an unescaped quote).
export function readLines(text) {
  return text.split('\n').filter(Boolean).map((raw) => {
    const line = JSON.parse(raw);
    line.rawData = raw.slice(raw.indexOf('"data":') + 7, -1);
    return line;
  });
}

// Past a break the chain goes on from the stored hashes, as cya-verify's does, so a changed
// event is named once and the receipts are still compared with every version.
export async function checkChain(gameId, lines) {
  let prev = '0'.repeat(64), broken = null;
  const hashes = [];
  for (const [i, l] of lines.entries()) {
    if (l.version !== i + 1) return { ok: false, hashes, version: i + 1, reason: t('check.missing', { n: i + 1 }) };
    const head = JSON.stringify([gameId, l.version, l.type, l.schema_version, l.visibility, l.command_id, l.actor]);
    const h = await sha256(enc.encode(`${prev}${head}\n${l.rawData}`));
    hashes.push(h);
    if (h !== l.hash) broken ??= l.version;
    prev = l.hash;
  }
  return broken ? { ok: false, hashes, version: broken, reason: t('check.breaks', { n: broken }) }
    : { ok: true, hashes, detail: t('check.holds', { n: lines.length }) };
}

// Each seat's client seed as it stood at the deal: the lobby's events folded (table/lobby.py).
function sentBeforeDeal(lines, upto) {
  const created = lines[0].data;
  const seats = [...created.seats];
  const sent = seats.map(() => new Uint8Array());
  const mine = seats.findIndex((s) => s?.kind === 'human' && s.player_id === created.creator);
  if (mine >= 0 && created.client_seed) sent[mine] = unbase64(created.client_seed);
  for (const { data: e } of lines.slice(1, upto)) {
    if (e.type === 'seat_taken') { seats[e.seat] = e.controller; sent[e.seat] = unbase64(e.client_seed); }
    if (e.type === 'seat_left') { seats[e.seat] = null; sent[e.seat] = new Uint8Array(); }
    if (e.type === 'client_seed_set') sent[e.seat] = unbase64(e.seed);
  }
  return { seats, sent };
}

async function dealKey(lines, at, master) {
  const started = lines[at].data;
  if (!started.client_seeds) return { key: master };
  const { seats, sent } = sentBeforeDeal(lines, at);
  const seeds = [];
  for (const [seat, holder] of seats.entries()) {
    const expected = holder?.kind === 'bot' ? await hmac(master, enc.encode(`bot:${seat}`)) : sent[seat];
    const source = holder?.kind === 'bot' ? 'bot' : expected.length ? 'player' : 'none';
    const named = started.client_seeds[seat];
    if (!named || named.seat !== seat || named.source !== source || !same(unbase64(named.seed), expected)) {
      return { reason: t('check.clientSeed', { seat }) };
    }
    seeds.push(concat(Uint8Array.of(expected.length), expected));
  }
  return { key: await hmac(master, concat(enc.encode('seats:'), Uint8Array.of(seats.length), ...seeds)) };
}

export async function checkSeeds(lines) {
  const created = lines[0]?.data;
  if (created?.type !== 'game_created') return { ok: false, reason: t('check.noCreated') };
  const at = lines.findIndex((l) => l.type === 'game_started');
  if (at < 0) return { ok: true, detail: t('check.notDealt') };
  const master = unbase64(lines[at].data.seed);
  if (created.seed_sha256 && await sha256(master) !== created.seed_sha256) {
    return { ok: false, reason: t('check.masterSeed') };
  }
  const deal = await dealKey(lines, at, master);
  if (!deal.key) return { ok: false, reason: deal.reason };
  const committed = new Map();
  let rounds = 0;
  for (const { data: e } of lines.slice(at)) {
    if (e.type === 'round_started') committed.set(e.round_no, e.seed_sha256);
    if (e.type !== 'round_ended') continue;
    const seed = unbase64(e.seed);
    if (await sha256(seed) !== committed.get(e.round_no)) return { ok: false, reason: t('check.roundCommitment', { n: e.round_no }) };
    if (!same(seed, await hmac(deal.key, enc.encode(`round:${e.round_no}`)))) {
      return { ok: false, reason: t('check.roundDerive', { n: e.round_no }) };
    }
    rounds += 1;
  }
  return { ok: true, detail: t('check.seeds', { committed: !!created.seed_sha256, clientSeeds: !!lines[at].data.client_seeds, n: rounds }) };
}

// `kept`: version → receipt, as store.js keeps them; `keys`: GET /v1/receipt-keys.
export async function checkReceipts(gameId, hashes, kept, keys, saltHex) {
  const list = Object.values(kept).sort((a, b) => a.version - b.version);
  if (!list.length) return { ok: null, detail: t('check.noReceipts') };
  const salt = unhex(saltHex || '');
  const commitment = await sha256(salt);
  const byId = new Map(keys.keys.map((k) => [k.key_id, k.public_key]));
  const prefix = keys.message_prefix || 'cya-receipt-v1\n';
  for (const r of list) {
    const bad = (why) => ({ ok: false, reason: t('check.receipt', { n: r.version, why }) });
    const pub = byId.get(r.key_id);
    if (!pub || (await sha256(unhex(pub))).slice(0, 16) !== r.key_id) return bad(t('check.unknownKey', { key: r.key_id }));
    const key = await subtle().importKey('raw', unhex(pub), { name: 'Ed25519' }, false, ['verify']);
    const message = enc.encode(`${prefix}${r.game_id}\n${r.version}\n${r.salt_commitment}\n${r.chain_seal}\n${r.key_id}`);
    if (!await subtle().verify({ name: 'Ed25519' }, key, unhex(r.signature), message)) return bad(t('check.signature'));
    if (r.game_id !== gameId) return bad(t('check.otherGame', { game: r.game_id }));
    if (r.salt_commitment !== commitment) return bad(t('check.salt'));
    if (r.version > hashes.length) return bad(t('check.beyond', { n: r.version, end: hashes.length }));
    if (hex(await hmac(salt, enc.encode(hashes[r.version - 1]))) !== r.chain_seal) return bad(t('check.notSigned', { n: r.version }));
  }
  return { ok: true, detail: t('check.receipts', { n: list.length }) };
}
