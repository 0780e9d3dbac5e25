// After the game: "Rematch" (same rules and players, seats one place on: the API's rematch,
// the one already offered if another player asked first) and "Play again" (the same game
// with its bots, new). The stream ends with the game, so what the table says after it (a
// reaction, a rematch offered) is read by pages, every few seconds, while the table is open.
// play.js loads only when asked: the table's first paint does not wait for it.
import { api } from './api.js';
import { announce, h } from './dom.js';
import { t } from './i18n.js';

const AFTER_END_POLL_MS = 3000;

// The buttons for a player of the finished game `id` (summary: the game's); `offer`: the
// rematch another player offered, with who, if known.
export function againButtons(id, summary, offer) {
  const act = (job) => async (ev) => {
    ev.target.disabled = true;
    try { location.hash = await job(); } catch (err) { announce(err.message, 'error'); ev.target.disabled = false; }
  };
  return h('div', { class: 'again' },
    offer ? h('p', { class: 'offer', role: 'status' }, t('end.offered', { who: offer.who }), ' ',
      h('a', { class: 'button primary', href: `#/join/${offer.game_id}` }, t('end.joinRematch'))) : null,
    h('div', { class: 'buttons' },
      offer ? null : h('button', { type: 'button', class: 'primary', 'aria-describedby': 'rematch-hint', 'data-focus': 'rematch',
        onclick: act(async () => `#/game/${(await api.rematch(id)).game_id}`) }, t('end.rematch')),
      h('button', { type: 'button', 'data-focus': 'again', onclick: act(async () => `#/game/${await (await import('./play.js')).playAgain(summary)}`) }, t('end.again'))),
    offer ? null : h('small', { id: 'rematch-hint' }, t('end.rematchHint')));
}

// Reads the log after `version` every few seconds, handing new items to `onEvents`, until
// the returned function is called.
export function followAfterEnd(id, version, onEvents) {
  let after = version, timer = null, stopped = false;
  const look = async () => {
    try {
      const page = await api.events(id, after);
      if (page.events.length) {
        after = page.events.at(-1).version;
        onEvents(page.events);
      }
    } catch { /* the next look tries again */ }
    if (!stopped) timer = setTimeout(look, AFTER_END_POLL_MS);
  };
  timer = setTimeout(look, AFTER_END_POLL_MS);
  return () => { stopped = true; clearTimeout(timer); };
}
