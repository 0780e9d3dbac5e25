// The lobby (#/lobby): my games (resume any), the public games (filterable, refreshed every
// few seconds: the API has no lobby stream), and the form to create a game. Without a key
// it lists the public games only, to watch (GET /v1/games needs no key).
import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { seatNames } from './board.js';
import { createForm } from './create.js';
import { current, session } from './store.js';

const REFRESH_MS = 4000;
const words = (s) => String(s).replaceAll('_', ' ');

export async function mount(root) {
  const st = { mine: [], open: [], filters: { status: '', edition: '', end_mode: '', players: '' }, cursor: null };
  current.screen = 'lobby';
  current.state = st;
  const signedIn = Boolean(session.key());
  const catalogue = await api.rulesets();
  const enums = catalogue.ruleset_schema.$defs;
  const mineList = h('div', { class: 'game-list', 'aria-live': 'off' });
  const openList = h('div', { class: 'game-list' });

  const filter = (name, label, options) => h('div', { class: 'field' },
    h('label', { for: `filter-${name}` }, label),
    h('select', {
      id: `filter-${name}`,
      onchange: (ev) => { st.filters[name] = ev.target.value; refresh(); },
    }, h('option', { value: '' }, 'any'), options.map((v) => h('option', { value: v }, words(v)))));

  replace(root, h('div', { class: 'lobby' },
    signedIn ? h('section', { 'aria-labelledby': 'mine-title' }, h('h2', { id: 'mine-title' }, 'My games'), mineList)
      : h('section', { class: 'get-key', 'aria-labelledby': 'play-title' }, h('h2', { id: 'play-title' }, 'Play'),
        h('p', {}, 'Watch any public game below as it is played. To play, get a key: it takes a name and nothing else.'),
        h('p', {}, h('a', { class: 'button primary', href: '#/start' }, 'Get a key to play'))),
    h('section', { 'aria-labelledby': 'open-title' }, h('h2', { id: 'open-title' }, 'Public games'),
      h('div', { class: 'filters', role: 'group', 'aria-label': 'Filter public games' },
        filter('status', 'Status', ['lobby', 'playing', 'finished']),
        filter('edition', 'Edition', enums.Edition.enum),
        filter('end_mode', 'End', enums.EndMode.enum),
        filter('players', 'Players', [2, 3, 4, 5, 6])),
      openList),
    signedIn ? createForm(catalogue) : null));

  async function refresh() {
    try {
      const [mine, open] = await Promise.all([signedIn ? api.games({ mine: true, limit: 20 }) : { games: [] }, api.games({ ...st.filters, limit: 20 })]);
      // Redraw only what changed, so a refresh does not move the keyboard focus.
      if (signedIn && (JSON.stringify(mine.games) !== JSON.stringify(st.mine) || !mineList.firstChild)) {
        replace(mineList, rows(st.mine = mine.games, 'You have no games yet: create one below.'));
      }
      if (JSON.stringify(open.games) !== JSON.stringify(st.open) || !openList.firstChild) {
        replace(openList, rows(st.open = open.games, 'No public game matches.'));
      }
    } catch (err) { announce(err.message, 'error'); }
  }
  await refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return () => clearInterval(timer);
}

function rows(games, empty) {
  if (!games.length) return h('p', { class: 'empty' }, empty);
  const me = session.playerId();
  return h('ul', {}, games.map((g) => {
    const names = seatNames(g);
    const seated = g.seats.some((s) => s?.kind === 'human' && s.player_id === me);
    const open = g.seats.filter((s) => !s).length;
    // Every seat taken: playing, or about to (a delayed game reaches watchers as it stood
    // that many events ago, so a game just dealt still looks seated and waiting to them).
    const watchable = !seated && (g.status === 'playing' || (g.status === 'lobby' && !open));
    const title = `${g.players}-player ${g.ruleset.edition}, ${words(g.ruleset.end_mode)}`;
    return h('li', { class: `game ${g.status}`, dataset: { game: g.game_id } },
      h('div', {},
        h('strong', {}, title),
        h('span', { class: `status s-${g.status}` }, g.status === 'lobby' ? `${open} open seat${open === 1 ? '' : 's'}` : g.status),
        g.public ? '' : h('span', { class: 'badge' }, 'private'),
        h('div', { class: 'who' }, names.join(', '))),
      h('div', { class: 'buttons' },
        seated || (g.status === 'lobby' && g.creator === me) ? h('a', { class: 'button primary', href: `#/game/${g.game_id}`, 'aria-label': `Open ${title}` }, g.status === 'finished' ? 'Results' : 'Open') : null,
        !seated && g.status === 'lobby' && open ? h('a', { class: 'button primary', href: `#/join/${g.game_id}`, 'aria-label': `Join ${title}` }, 'Join') : null,
        watchable ? h('a', { class: 'button', href: `#/watch/${g.game_id}`, 'aria-label': `Watch ${title}` }, 'Watch') : null,
        watchable && g.spectator_delay ? h('span', { class: 'hint' }, `${g.spectator_delay} events behind`) : null,
        g.status === 'finished' ? h('a', { class: 'button', href: `#/audit/${g.game_id}`, 'aria-label': `Audit ${title}` }, 'Audit') : null));
  }));
}
