// Watching a public game (#/watch/ID): the spectator's view, live, with the log. A watcher
// sees no hand. Today the API wants a key for this; once public games are open to anonymous
// callers (issue 27), set WATCH_KEY to null and nothing else changes.
import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { board, seatNames } from './board.js';
import { loadCards } from './cards.js';
import { liveGame } from './live.js';
import { logPanel } from './logpanel.js';
import { current, session } from './store.js';

export async function mount(root, { id }) {
  const WATCH_KEY = session.key(); // null: watch anonymously
  const st = { id, summary: null, view: null, version: 0 };
  current.screen = 'watch';
  current.state = st;
  const main = h('div', { class: 'play' });
  const log = logPanel(() => ({ seat: (n) => seatNames(st.summary)[n], player: (p) => st.summary?.names[p] || 'Someone', edition: st.summary.ruleset.edition }));
  replace(root, h('div', { class: 'table-screen watching' }, main, log.el));

  // GET /games/{id} is the summary and the spectator's view in one answer.
  const load = async () => {
    const detail = await api.game(id, { key: WATCH_KEY });
    return { version: detail.summary.version, detail };
  };
  const [first] = await Promise.all([load(), loadCards()]);
  st.summary = first.detail.summary;
  const live = liveGame(id, {
    load,
    first,
    key: WATCH_KEY,
    onChange({ version, detail }) {
      Object.assign(st, { version, summary: detail.summary, view: detail.view });
      render();
    },
    onEvents: (items) => log.add(items),
    onStatus(status, err) {
      if (status === 'reconnecting') announce('Connection lost: reconnecting…', 'warn');
      if (status === 'live') announce('');
      if (status === 'closed' || status === 'error') announce(err?.message || 'Something went wrong.', 'error');
    },
  });

  function render() {
    const rs = st.summary.ruleset;
    replace(main,
      h('header', { class: 'game-head' },
        h('h1', {}, 'Watching', h('span', { class: 'sub' }, ` · ${rs.players} players · ${rs.edition} · ${rs.end_mode.replaceAll('_', ' ')}`)),
        h('nav', { class: 'buttons', 'aria-label': 'Game' },
          st.summary.status === 'finished' ? h('a', { href: `#/audit/${id}` }, 'Audit this game') : null,
          h('a', { href: '#/lobby' }, 'Lobby'))),
      st.view ? board(st.view, { names: seatNames(st.summary), edition: rs.edition, version: st.version, deadline: st.summary.deadline })
        : h('p', {}, 'The game has not started yet.'));
  }
  return () => live.stop();
}
