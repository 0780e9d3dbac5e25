// Watching a public game (#/watch/ID): the spectator's view, live, with the log. Anyone may
// watch, with or without a key: the page asks without one (no key is sent), so it shows
// exactly what the server gives every watcher, never a hand. A game created with a
// spectator delay reaches watchers that many events behind the table while it runs.
import { api } from './api.js';
import { announce, h, replace, unannounce } from './dom.js';
import { board, seatFolding, seatNames } from './board.js';
import { loadCards } from './cards.js';
import { liveGame } from './live.js';
import { logPanel } from './logpanel.js';
import { forEdition, t } from './i18n.js';
import { playback } from './motion.js';
import { showReactions } from './reactions.js';
import { current, session } from './store.js';

const ANONYMOUS = null;

export async function mount(root, { id }) {
  const st = { id, summary: null, view: null, version: 0 };
  current.screen = 'watch';
  current.state = st;
  const main = h('div', { class: 'play' });
  const told = () => ({ seat: (n) => seatNames(st.summary)[n], player: (p) => st.summary?.names[p] || t('start.someone'), edition: st.summary.ruleset.edition, mySeat: null });

  // GET /games/{id} is the summary and the spectator's view in one answer, both as of the
  // spectator delay's horizon (that many events behind while the game runs, never before
  // version 1): the summary's version is the version shown.
  const load = async () => {
    const detail = await api.game(id, { key: ANONYMOUS });
    return { version: detail.summary.version, detail };
  };
  const [first] = await Promise.all([load(), loadCards()]);
  st.summary = first.detail.summary;
  await forEdition(st.summary.ruleset.edition);  // before the log and playback take titles
  const log = logPanel(told);
  const motion = playback(told);
  const { isOpen: seatOpen, toggle: toggleSeat } = seatFolding(() => st.view && render());
  replace(root, h('div', { class: 'table-screen watching' }, main, log.el));
  let trouble = null; // what the page said of a lost connection or a failed read
  const live = liveGame(id, {
    load,
    first,
    key: ANONYMOUS,
    onChange({ version, detail }) {
      Object.assign(st, { version, summary: detail.summary, view: detail.view });
      render();
    },
    onEvents: (items) => { log.add(items); motion.add(items); showReactions(items, () => seatNames(st.summary)); },
    onStatus(status, err) {
      main.dataset.stream = status;
      // Back: the warning goes (but not what was said since).
      if (status === 'reconnecting') announce(trouble = t('table.reconnecting'), 'warn');
      if (status === 'live' && trouble) { unannounce(trouble); trouble = null; }
      if (status === 'error' || status === 'closed') announce(trouble = err?.message || t('table.wrong'), 'error');
    },
  });

  function render() {
    const rs = st.summary.ruleset, delay = st.summary.spectator_delay;
    const me = session.playerId();
    const seated = me && st.summary.seats.some((s) => s?.kind === 'human' && s.player_id === me);
    replace(main,
      h('header', { class: 'game-head' },
        h('h1', {}, t('watch.title'), h('span', { class: 'sub' }, t('watch.sub', { n: rs.players, edition: rs.edition, end: rs.end_mode }))),
        h('nav', { class: 'buttons', 'aria-label': t('table.nav') },
          seated ? h('a', { class: 'button primary', href: `#/game/${id}` }, t('watch.yourSeat')) : null,
          st.summary.status === 'finished' ? h('a', { href: `#/audit/${id}` }, t('table.audit')) : null,
          h('a', { href: '#/lobby' }, t('table.lobby')))),
      h('p', { class: 'hint watch-note' }, ['lobby', 'playing'].includes(st.summary.status) && delay
        ? t('watch.delayed', { n: delay })
        : t('watch.live')),
      st.view ? board(st.view, { names: seatNames(st.summary), edition: rs.edition, version: st.version, deadline: delay ? null : st.summary.deadline,
        recent: motion.el, open: seatOpen, toggle: toggleSeat })
        : h('p', {}, t('watch.notStarted')));
    motion.shown(st.version, main);
  }
  return () => { live.stop(); motion.stop(); };
}
