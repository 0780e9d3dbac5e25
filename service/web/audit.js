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
import { forEdition, t } from './i18n.js';
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
  await forEdition(edition);
  const ctx = { seat: (n) => names[n], player: (p) => st.summary.names[p] || t('start.someone'), edition };

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
  const verifyBox = h('section', { class: 'verify-box', 'aria-labelledby': 'verify-title' }, h('h2', { id: 'verify-title' }, t('audit.verification')), h('p', {}, t('audit.checking')));
  const browserBox = h('section', { class: 'verify-box-browser', 'aria-labelledby': 'browser-title' }, h('h2', { id: 'browser-title' }, t('audit.inBrowser')), h('p', {}, st.lines ? t('audit.checking') : t('audit.notOpen')));
  const button = (text, to, label) => h('button', { onclick: () => go(to()), 'aria-label': label }, text);
  replace(root, h('div', { class: 'audit' },
    h('header', { class: 'game-head' },
      h('h1', {}, t('audit.title'), h('span', { class: 'sub' }, t('audit.sub', { n: st.summary.players, edition, last }))),
      h('nav', { class: 'buttons', 'aria-label': t('table.nav') }, h('a', { href: '#/lobby' }, t('table.lobby')))),
    verifyBox, browserBox,
    h('div', { class: 'stepper', role: 'group', 'aria-label': t('audit.stepper') },
      button(t('audit.first'), () => 1, t('audit.firstVersion')), button(t('audit.previous'), () => st.at - 1, t('audit.previousVersion')),
      h('label', { for: 'version' }, t('audit.version')), slider, h('output', { for: 'version', id: 'at' }),
      button(t('audit.next'), () => st.at + 1, t('audit.nextVersion')), button(t('audit.last'), () => last, t('audit.lastVersion'))),
    h('p', { class: 'hint' }, t('audit.keys')),
    stage));

  async function go(n) {
    st.at = Math.min(Math.max(1, n), last);
    slider.value = String(st.at);
    const at = st.at;
    document.getElementById('at').textContent = t('audit.of', { at, last });
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
      h('p', { class: 'event' }, h('strong', {}, t('audit.versionN', { at })), event ? sentence(event, ctx) : t('audit.unreadable')),
      state.error ? h('p', { class: 'problem', role: 'alert' }, state.error)
        : state.view ? board(state.view, { names, edition, version: at, mySeat: state.seat, hands: st.hands?.get(at) })
          : h('p', {}, t('audit.notDealt')));
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
  replace(verifyBox, h('h2', { id: 'verify-title' }, t('audit.verification')),
    v.ok ? h('p', { class: 'ok' }, t('audit.verified', v))
      : h('div', { class: 'bad', role: 'alert' },
        h('p', {}, t('audit.damaged', v)),
        v.first_bad_version ? h('button', { onclick: () => go(v.first_bad_version) }, t('audit.goTo', { n: v.first_bad_version })) : null));
  if (v.seeds) verifyBox.append(seedsPart(v.seeds, names));
  if (!v.ok) announce(t('audit.failed'), 'error');
  if (st.lines) await checkHere(st, browserBox);
  return () => document.removeEventListener('keydown', onKey);
}

// The seeds of the deal, as GET /verify checked them (rules version 4): the master seed's
// commitment at creation, then every seat's client seed as game_started names it.
function seedsPart(seeds, names) {
  const short = (hex) => hex.length > 16 ? `${hex.slice(0, 16)}…` : hex;
  return h('div', { class: 'seeds' },
    h('h3', {}, t('audit.seeds')),
    seeds.seed_sha256
      ? h('p', {}, t('audit.master', { hash: short(seeds.seed_sha256) }),
        seeds.commitment_verified ? h('span', { class: 'ok' }, t('audit.dealtWith')) : h('span', {}, t('audit.notDealtYet')))
      : h('p', {}, t('audit.before4')),
    seeds.client_seeds
      ? h('ul', { class: 'client-seeds' }, ...seeds.client_seeds.map((c) => h('li', { 'data-seat': String(c.seat) },
        `${names[c.seat] || t('custom.seat', { n: c.seat + 1 })}: `, c.seed ? h('code', { title: c.seed }, short(c.seed)) : h('em', {}, t('board.empty')), ` (${['player', 'bot', 'none'].includes(c.source) ? t(`audit.source.${c.source}`) : c.source})`)))
      : h('p', {}, t('audit.noClientSeeds')));
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
    results = [['WebCrypto', { ok: false, reason: t('audit.cannot', { message: err.message }) }]];
  }
  const failed = results.find(([, r]) => r.ok === false);
  const save = (name, text, label) => h('a', { download: name, href: URL.createObjectURL(new Blob([text])) }, label);
  const kept = Object.values(receipts.of(id)).sort((a, b) => a.version - b.version);
  replace(box, h('h2', { id: 'browser-title' }, t('audit.inBrowser')),
    failed ? h('p', { class: 'bad', role: 'alert' }, t('audit.notVerifiedHere', { reason: failed[1].reason }))
      : h('p', { class: 'ok' }, t('audit.verifiedHere')),
    h('ul', { class: 'browser-checks' }, ...results.map(([name, r]) => h('li', { 'data-check': name, class: r.ok === false ? 'bad' : r.ok ? 'ok' : '' },
      `${r.ok === false ? '✗' : r.ok ? '✓' : '–'} ${t(`audit.check.${name}`)}: ${r.ok === false ? r.reason : r.detail}`))),
    h('p', { class: 'hint' }, t('audit.offline'),
      save(`${id}.history.ndjson`, file.text, 'history'), ' · ', save(`${id}.salt`, `${file.salt}\n`, 'salt'), ' · ',
      save(`${id}.receipts.ndjson`, kept.map((r) => `${JSON.stringify(r)}\n`).join(''), 'receipts'), ' · ',
      save('keys.json', JSON.stringify(keys), 'keys')));
  if (failed) announce(t('audit.hereFailed'), 'error');
}
