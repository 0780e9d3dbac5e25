// The lobby (#/lobby): my games (resume any), the public games (filterable, refreshed every
// few seconds: the API has no lobby stream), and the ways to a new game (the start screen's
// one click, or the custom game). Without a key it lists the public games only, to watch
// (GET /v1/games needs no key).
import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { seatNames } from './board.js';
import { t } from './i18n.js';
import { current, session } from './store.js';

const REFRESH_MS = 4000;
// An option's words: `edition.de_2024`, `end.quick`, `status.playing`…
const optionWords = { edition: 'edition', end_mode: 'end', status: 'status' };
const words = (name, v) => (optionWords[name] ? t(`${optionWords[name]}.${v}`) : String(v));

export async function mount(root) {
  const st = { mine: [], open: [], filters: { status: '', edition: '', end_mode: '', players: '' }, cursor: null };
  current.screen = 'lobby';
  current.state = st;
  const signedIn = Boolean(session.key());
  const mineList = h('div', { class: 'game-list', 'aria-live': 'off' });
  const openList = h('div', { class: 'game-list' });

  const filter = (name, label, options) => h('div', { class: 'field' },
    h('label', { for: `filter-${name}` }, label),
    h('select', {
      id: `filter-${name}`,
      onchange: (ev) => { st.filters[name] = ev.target.value; refresh(); },
    }, h('option', { value: '' }, t('lobby.any')), options.map((v) => h('option', { value: v }, words(name, v)))));

  async function refresh() {
    try {
      const [mine, open] = await Promise.all([signedIn ? api.games({ mine: true, limit: 20 }) : { games: [] }, api.games({ ...st.filters, limit: 20 })]);
      // Redraw only what changed, so a refresh does not move the keyboard focus.
      if (signedIn && (JSON.stringify(mine.games) !== JSON.stringify(st.mine) || !mineList.firstChild)) {
        replace(mineList, rows(st.mine = mine.games, t('lobby.none')));
      }
      if (JSON.stringify(open.games) !== JSON.stringify(st.open) || !openList.firstChild) {
        replace(openList, rows(st.open = open.games, t('lobby.noMatch')));
      }
    } catch (err) { announce(err.message, 'error'); }
  }
  // The lists (asked beside the rule sets) before the screen: drawn before them, "Custom game"
  // moved down under a reader's click as "My games" filled, and the click met a game's row.
  const [catalogue] = await Promise.all([api.rulesets(), refresh()]);
  const enums = catalogue.ruleset_schema.$defs;
  replace(root, h('div', { class: 'lobby' },
    signedIn ? h('section', { 'aria-labelledby': 'mine-title' }, h('h2', { id: 'mine-title' }, t('lobby.mine')), mineList,
      h('p', { class: 'buttons new-game' },
        h('a', { class: 'button primary', href: '#/' }, t('lobby.playNow')),
        h('a', { class: 'button', href: '#/custom' }, t('lobby.custom'))))
      : h('section', { class: 'get-key', 'aria-labelledby': 'play-title' }, h('h2', { id: 'play-title' }, t('lobby.playTitle')),
        h('p', {}, t('lobby.playText')),
        h('p', {}, h('a', { class: 'button primary', href: '#/' }, t('lobby.playNow')))),
    h('section', { 'aria-labelledby': 'open-title' }, h('h2', { id: 'open-title' }, t('lobby.public')),
      h('div', { class: 'filters', role: 'group', 'aria-label': t('lobby.filter') },
        filter('status', t('lobby.status'), ['lobby', 'playing', 'finished']),
        filter('edition', t('lobby.edition'), enums.Edition.enum),
        filter('end_mode', t('lobby.end'), enums.EndMode.enum),
        filter('players', t('lobby.players'), [2, 3, 4, 5, 6])),
      openList)));
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
    const title = t('lobby.gameTitle', { n: g.players, edition: t(`edition.${g.ruleset.edition}`), end: t(`end.${g.ruleset.end_mode}`) });
    // The button's name says which game: "Open" alone would be one of many.
    const named = (what) => ({ 'aria-label': `${what}: ${title}` });
    return h('li', { class: `game ${g.status}`, dataset: { game: g.game_id } },
      h('div', {},
        h('strong', {}, title),
        h('span', { class: `status s-${g.status}` }, g.status === 'lobby' ? t('lobby.open', { n: open }) : t(`status.${g.status}`)),
        g.public ? '' : h('span', { class: 'badge' }, t('lobby.private')),
        h('div', { class: 'who' }, names.join(', '))),
      h('div', { class: 'buttons' },
        seated || (g.status === 'lobby' && g.creator === me) ? h('a', { class: 'button primary', href: `#/game/${g.game_id}`, ...named(t(g.status === 'finished' ? 'lobby.results' : 'lobby.openGame')) }, t(g.status === 'finished' ? 'lobby.results' : 'lobby.openGame')) : null,
        !seated && g.status === 'lobby' && open ? h('a', { class: 'button primary', href: `#/join/${g.game_id}`, ...named(t('lobby.join')) }, t('lobby.join')) : null,
        watchable ? h('a', { class: 'button', href: `#/watch/${g.game_id}`, ...named(t('lobby.watchGame')) }, t('lobby.watchGame')) : null,
        watchable && g.spectator_delay ? h('span', { class: 'hint' }, t('lobby.behind', { n: g.spectator_delay })) : null,
        g.status === 'finished' ? h('a', { class: 'button', href: `#/audit/${g.game_id}`, ...named(t('lobby.audit')) }, t('lobby.audit')) : null));
  }));
}
