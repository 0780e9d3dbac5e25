// The audit viewer (#/audit/ID): step through a game version by version (buttons, slider,
// arrow keys). Each step shows the table from GET /state?version=N, the event that made it,
// and, once the game is finished, every hand (folded from the unredacted history). Beside
// it, GET /verify: the hash chain, each shuffle against its revealed seed, the rules replay,
// and the seeds of the deal (the master seed's commitment, every seat's client seed). Apart
// from it, the same history checked in this browser (browser_checks.js), and the files to
// check it offline with `cya-verify` (docs/audit.md).
import { api } from './api.js';
import { checkChain, checkReceipts, checkSeeds, readLines } from './browser_checks.js';
import { announce, h, replace } from './dom.js';
import { board, seatNames } from './board.js';
import { loadCards } from './cards.js';
import { sentence } from './log.js';
import { current, receipts } from './store.js';

export async function mount(root, { id, version }) {
  const st = { id, summary: null, events: new Map(), hands: null, verify: null, at: 1, states: new Map() };
  current.screen = 'audit';
  current.state = st;
  await loadCards();
  st.summary = (await api.game(id)).summary;
  const last = st.summary.version;
  const names = seatNames(st.summary);
  const edition = st.summary.ruleset.edition;
  const ctx = { seat: (n) => names[n], player: (p) => st.summary.names[p] || 'Someone', edition };

  // The whole unredacted log when we may read it (finished, or the creator of a game it
  // does not play in); otherwise the log as this key sees it.
  try {
    st.file = await api.historyFile(id);
    const lines = st.lines = readLines(st.file.text);
    for (const l of lines) st.events.set(l.version, l.data);
    if (st.summary.status === 'finished') st.hands = handsByVersion(lines);
  } catch {
    for (let after = 0; after < last;) {
      const page = await api.events(id, after);
      page.events.forEach((e) => st.events.set(e.version, e.event));
      if (page.next_after === after) break;
      after = page.next_after;
    }
  }

  const slider = h('input', { type: 'range', id: 'version', min: '1', max: String(last), value: '1', oninput: (ev) => go(Number(ev.target.value)) });
  const stage = h('div', { class: 'stage', 'aria-live': 'polite' });
  const verifyBox = h('section', { class: 'verify-box', 'aria-labelledby': 'verify-title' }, h('h2', { id: 'verify-title' }, 'Verification'), h('p', {}, 'Checking…'));
  const browserBox = h('section', { class: 'verify-box-browser', 'aria-labelledby': 'browser-title' }, h('h2', { id: 'browser-title' }, 'Checked in your browser'), h('p', {}, st.lines ? 'Checking…' : 'The history is not open to you yet.'));
  const button = (text, to, label) => h('button', { onclick: () => go(to()), 'aria-label': label }, text);
  replace(root, h('div', { class: 'audit' },
    h('header', { class: 'game-head' },
      h('h1', {}, 'Audit', h('span', { class: 'sub' }, ` · ${st.summary.players} players · ${edition} · ${last} versions`)),
      h('nav', { class: 'buttons', 'aria-label': 'Game' }, h('a', { href: '#/lobby' }, 'Lobby'))),
    verifyBox, browserBox,
    h('div', { class: 'stepper', role: 'group', 'aria-label': 'Step through the versions' },
      button('First', () => 1, 'First version'), button('Previous', () => st.at - 1, 'Previous version'),
      h('label', { for: 'version' }, 'Version'), slider, h('output', { for: 'version', id: 'at' }),
      button('Next', () => st.at + 1, 'Next version'), button('Last', () => last, 'Last version')),
    h('p', { class: 'hint' }, 'Arrow keys step through the versions; Home and End jump to the first and last.'),
    stage));

  async function go(n) {
    st.at = Math.min(Math.max(1, n), last);
    slider.value = String(st.at);
    const at = st.at;
    document.getElementById('at').textContent = `${at} of ${last}`;
    const event = st.events.get(at);
    let state = st.states.get(at);
    try {
      if (!state) st.states.set(at, state = await api.state(id, at));
    } catch (err) {
      state = { error: err.message };
    }
    if (st.at !== at) return; // the reader stepped on meanwhile
    st.view = state.view ?? null;
    replace(stage,
      h('p', { class: 'event' }, h('strong', {}, `Version ${at}: `), event ? sentence(event, ctx) : '(not readable)'),
      state.error ? h('p', { class: 'problem', role: 'alert' }, state.error)
        : state.view ? board(state.view, { names, edition, version: at, mySeat: state.seat, hands: st.hands?.get(at) })
          : h('p', {}, 'Not dealt yet.'));
  }

  function onKey(ev) {
    if (ev.target.matches('input:not([type=range]), select, textarea')) return;
    const to = { ArrowLeft: st.at - 1, ArrowRight: st.at + 1, Home: 1, End: last }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  }
  document.addEventListener('keydown', onKey);

  await go(Number(version) || 1);
  try {
    st.verify = await api.verify(id);
  } catch (err) {
    st.verify = { ok: false, reason: err.message, first_bad_version: null };
  }
  const v = st.verify;
  replace(verifyBox, h('h2', { id: 'verify-title' }, 'Verification'),
    v.ok ? h('p', { class: 'ok' }, `✓ Verified by the server: the hash chain holds over ${v.events} events; ${v.rounds_verified === 1 ? '1 shuffle matches its revealed seed' : `${v.rounds_verified} shuffles match their revealed seeds`}; ${v.draws_verified} draws came from the top of the pile; every event follows by the rules.`)
      : h('div', { class: 'bad', role: 'alert' },
        h('p', {}, `✗ This game's log is damaged${v.first_bad_version ? ` at version ${v.first_bad_version}` : ''}: ${v.reason}`),
        v.first_bad_version ? h('button', { onclick: () => go(v.first_bad_version) }, `Go to version ${v.first_bad_version}`) : null));
  if (v.seeds) verifyBox.append(seedsPart(v.seeds, names));
  if (!v.ok) announce('Verification failed.', 'error');
  if (st.lines) await checkHere(st, browserBox);
  return () => document.removeEventListener('keydown', onKey);
}

// The seeds of the deal, as GET /verify checked them (rules version 4): the master seed's
// commitment at creation, then every seat's client seed as game_started names it.
const SOURCE = { player: 'sent by its player', bot: 'a bot: derived from the master seed', none: 'sent none: the empty value' };
function seedsPart(seeds, names) {
  const short = (hex) => hex.length > 16 ? `${hex.slice(0, 16)}…` : hex;
  return h('div', { class: 'seeds' },
    h('h3', {}, 'Seeds of the deal'),
    seeds.seed_sha256
      ? h('p', {}, `Master seed committed to at creation: SHA-256 ${short(seeds.seed_sha256)} `,
        seeds.commitment_verified ? h('span', { class: 'ok' }, '✓ dealt with that seed') : h('span', {}, '(not dealt yet)'))
      : h('p', {}, 'Created before rules version 4: the master seed was drawn at the deal.'),
    seeds.client_seeds
      ? h('ul', { class: 'client-seeds' }, ...seeds.client_seeds.map((c) => h('li', { 'data-seat': String(c.seat) },
        `${names[c.seat] || `Seat ${c.seat + 1}`}: `, c.seed ? h('code', { title: c.seed }, short(c.seed)) : h('em', {}, 'empty'), ` (${SOURCE[c.source] || c.source})`)))
      : h('p', {}, 'No client seeds in this deal (a tournament table, an older game, or not dealt yet).'));
}

// Every hand at each version, folded from the unredacted history: a deal sets them, a draw
// adds to one, and a card any other event names leaves the hand that held it (cards never
// go back to a hand).
function handsByVersion(lines) {
  const out = new Map();
  let hands = null;
  for (const { version, data: e } of lines) {
    if (e.type === 'round_started') hands = e.hands.map((cards) => [...cards]);
    else if (hands && e.type === 'cards_drawn') hands[e.seat].push(...e.cards);
    else if (hands) {
      for (const card of [e.card, e.hand_card, ...(e.cards || [])]) {
        for (const hand of hands) if (hand.includes(card)) hand.splice(hand.indexOf(card), 1);
      }
    }
    out.set(version, hands && hands.map((cards) => [...cards]));
  }
  return out;
}

// The history checked here with WebCrypto, each check on a line of its own, and the files to
// check it again offline: `cya-verify ID.history.ndjson --receipts . --keys keys.json`.
async function checkHere(st, box) {
  const { id, lines, file } = st;
  const keys = await api.receiptKeys().catch(() => ({ keys: [] }));
  let results;
  try {
    const chain = await checkChain(id, lines);
    results = [['Hash chain', chain], ['Seeds', await checkSeeds(lines)],
      ['Receipts', await checkReceipts(id, chain.hashes, receipts.of(id), keys, file.salt)]];
  } catch (err) { // no WebCrypto here (an old browser, a page not served over HTTPS)
    results = [['WebCrypto', { ok: false, reason: `cannot check here: ${err.message}` }]];
  }
  const failed = results.find(([, r]) => r.ok === false);
  const save = (name, text, label) => h('a', { download: name, href: URL.createObjectURL(new Blob([text])) }, label);
  const kept = Object.values(receipts.of(id)).sort((a, b) => a.version - b.version);
  replace(box, h('h2', { id: 'browser-title' }, 'Checked in your browser'),
    failed ? h('p', { class: 'bad', role: 'alert' }, `✗ Not verified in your browser: ${failed[1].reason}`)
      : h('p', { class: 'ok' }, '✓ Verified in your browser (WebCrypto: SHA-256, HMAC, Ed25519), apart from the server\'s word.'),
    h('ul', { class: 'browser-checks' }, ...results.map(([name, r]) => h('li', { 'data-check': name, class: r.ok === false ? 'bad' : r.ok ? 'ok' : '' },
      `${r.ok === false ? '✗' : r.ok ? '✓' : '–'} ${name}: ${r.ok === false ? r.reason : r.detail}`))),
    h('p', { class: 'hint' }, 'Check it offline with cya-verify (docs/audit.md): ',
      save(`${id}.history.ndjson`, file.text, 'history'), ' · ', save(`${id}.salt`, `${file.salt}\n`, 'salt'), ' · ',
      save(`${id}.receipts.ndjson`, kept.map((r) => `${JSON.stringify(r)}\n`).join(''), 'receipts'), ' · ',
      save('keys.json', JSON.stringify(keys), 'keys')));
  if (failed) announce('The check in your browser failed.', 'error');
}
