// The router: the part of the URL after `#` picks the screen, so the server only ever serves
// static files. #/join/ID is the invitation link: it takes a seat, then opens the table.
// The header carries the language switch (i18n.js): switching redraws the screen.
import { api, prefetchTable } from './api.js';
import { announce, h, replace } from './dom.js';
import { choose, forEdition, lang, LANGUAGES, ready, t } from './i18n.js';
import { session } from './store.js';

// A screen is a module with `mount(element, params)`; it loads when first shown (index.html
// preloads the table's modules). `mount` may return a function that ends the screen.
const screen = (name, params = () => ({})) => async (m, el) =>
  (await import(`./${name}.js`)).mount(el, params(m));

const main = document.getElementById('app');
let unmount = null;

// [address, screen, needs a key]. Public games may be listed, watched and audited without one.
const ROUTES = [
  [/^#\/game\/([\w-]+)$/, (m, el) => { prefetchTable(m[1]); return screen('table', () => ({ id: m[1] }))(m, el); }, true],
  [/^#\/watch\/([\w-]+)$/, screen('watch', (m) => ({ id: m[1] })), false],
  [/^#\/audit\/([\w-]+)(?:\/(\d+))?$/, screen('audit', (m) => ({ id: m[1], version: m[2] })), false],
  [/^#\/join\/([\w-]+)$/, (m) => join(m[1]), true],
  [/^#\/lobby$/, screen('lobby'), false],
  [/^#\/custom$/, screen('create'), true],
  [/^#\/seek\/([\w-]+)$/, screen('seek', (m) => ({ id: m[1] })), true],
  [/^#?\/?$/, screen('start'), false],
  [/^#\/start$/, screen('start'), false],
];

// One join at a time per game: the route can be shown twice before the first answer comes
// (a slow server), and a second POST would only be refused as `already_seated`.
const joining = new Map();
function join(id) {
  if (!joining.has(id)) joining.set(id, joinOnce(id).finally(() => joining.delete(id)));
  return joining.get(id);
}

async function joinOnce(id) {
  const summary = (await api.game(id)).summary;
  const me = session.playerId();
  if (summary.status === 'lobby' && !summary.seats.some((s) => s?.kind === 'human' && s.player_id === me)) {
    // Already seated (the link opened twice, in two tabs): the table is all the same.
    await api.join(id).catch((err) => { if (err.problem.rule !== 'already_seated') throw err; });
  }
  location.replace(`#/game/${id}`);
}

async function route() {
  unmount?.();
  unmount = null;
  const hash = location.hash;
  const found = ROUTES.find(([re]) => re.test(hash));
  if (!found) { location.hash = '#/'; return; }
  const [re, show, needsKey] = found;
  forEdition(null); // a game's screen says its edition again (a loaded language: at once)
  drawHeader();
  announce('');
  if (needsKey && !session.key()) {
    const el = h('div');
    replace(main, el);
    screen('start', () => ({ next: hash }))(null, el);
    return;
  }
  // A screen still loading when the reader moves on draws into its own detached element,
  // never over the next screen.
  const mine = h('div', {}, h('p', { class: 'loading' }, t('loading')));
  replace(main, mine);
  try {
    const result = await show(hash.match(re), mine);
    if (location.hash === hash) unmount = typeof result === 'function' ? result : null;
    else if (typeof result === 'function') result();
  } catch (err) {
    replace(mine, h('section', { class: 'problem-page' }, h('h1', {}, t('error.title')),
      h('p', { role: 'alert' }, err.message), h('p', {}, h('a', { href: '#/' }, t('error.back')))));
    announce(err.message, 'error');
  }
  main.focus({ preventScroll: true });
}

// There are no accounts, only API keys kept in this browser: the links say so. The other
// language is offered by its own name, in its own language.
function drawHeader() {
  document.documentElement.lang = lang();
  document.querySelector('.skip').textContent = t('skip');
  document.querySelector('header.top nav').setAttribute('aria-label', t('nav.site'));
  const other = Object.keys(LANGUAGES).find((l) => l !== lang());
  replace(document.getElementById('who'),
    session.key() ? [h('span', {}, session.name()), ' · ', h('a', { href: '#/lobby' }, t('nav.games')), ' · ', h('a', { href: '#/start' }, t('nav.key'))]
      : h('a', { href: '#/' }, t('nav.getKey')),
    ' · ', h('a', { href: '/docs' }, t('nav.api')), h('span', { class: 'before-lang' }, ' · '),
    h('button', { type: 'button', class: 'lang-switch', lang: other, onclick: async () => { await choose(other); route(); } },
      LANGUAGES[other]));
}

window.addEventListener('hashchange', route);
ready().then(route);

// The skip link moves the focus without touching the hash (the hash is the route).
document.querySelector('.skip').addEventListener('click', (ev) => { ev.preventDefault(); main.focus(); });
