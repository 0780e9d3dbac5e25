// The router: the part of the URL after `#` picks the screen, so the server only ever serves
// static files. #/join/ID is the invitation link: it takes a seat, then opens the table.
import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { session } from './store.js';
import * as start from './start.js';
import * as lobby from './lobby.js';
import * as table from './table.js';
import * as watch from './watch.js';
import * as audit from './audit.js';

const main = document.getElementById('app');
let root = main; // each visit to a route draws into a fresh element of its own (see route)
let unmount = null;

const ROUTES = [
  [/^#\/game\/([\w-]+)$/, (m) => table.mount(root, { id: m[1] }), true],
  [/^#\/watch\/([\w-]+)$/, (m) => watch.mount(root, { id: m[1] }), true],
  [/^#\/audit\/([\w-]+)(?:\/(\d+))?$/, (m) => audit.mount(root, { id: m[1], version: m[2] }), true],
  [/^#\/join\/([\w-]+)$/, (m) => join(m[1]), true],
  [/^#\/lobby$/, () => lobby.mount(root), true],
  [/^#?\/?$/, () => session.key() ? (location.hash = '#/lobby') : start.mount(root, {}), false],
  [/^#\/start$/, () => start.mount(root, {}), false],
];

async function join(id) {
  const summary = (await api.game(id)).summary;
  const me = session.playerId();
  if (summary.status === 'lobby' && !summary.seats.some((s) => s?.kind === 'human' && s.player_id === me)) {
    await api.join(id);
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
  drawHeader();
  announce('');
  if (needsKey && !session.key()) {
    root = h('div');
    replace(main, root);
    start.mount(root, { next: hash });
    return;
  }
  // A screen still loading when the reader moves on draws into its own detached element,
  // never over the next screen.
  const mine = root = h('div', {}, h('p', { class: 'loading' }, 'Loading…'));
  replace(main, mine);
  try {
    const result = await show(hash.match(re));
    if (location.hash === hash) unmount = typeof result === 'function' ? result : null;
    else if (typeof result === 'function') result();
  } catch (err) {
    replace(mine, h('section', { class: 'problem-page' }, h('h1', {}, 'Something went wrong'),
      h('p', { role: 'alert' }, err.message), h('p', {}, h('a', { href: '#/lobby' }, 'Back to the lobby'))));
    announce(err.message, 'error');
  }
  main.focus({ preventScroll: true });
}

function drawHeader() {
  replace(document.getElementById('who'), session.key()
    ? [h('span', {}, session.name()), ' · ', h('a', { href: '#/start' }, 'Account')]
    : h('a', { href: '#/' }, 'Sign in'));
}

window.addEventListener('hashchange', route);
route();

// The skip link moves the focus without touching the hash (the hash is the route).
document.querySelector('.skip').addEventListener('click', (ev) => { ev.preventDefault(); main.focus(); });
