// Quick play, waiting (#/seek/ID): the seek as it stands, read every second until the
// matchmaker pairs it (`matched`: off to the game, dealt already), with a way to stop looking
// or to play bots instead.
import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { t } from './i18n.js';
import { playBots } from './play.js';
import { current } from './store.js';

const POLL_MS = 1000;

export async function mount(root, { id }) {
  const st = { id, seek: await api.seekStatus(id) };
  current.screen = 'seek';
  current.state = st;
  const waited = h('p', { class: 'hint', 'aria-live': 'off' });
  const stop = async (ev) => {
    ev.target.disabled = true;
    try { st.seek = await api.cancelSeek(id); announce(t('seek.cancelled')); location.hash = '#/'; } catch (err) {
      announce(err.message, 'error'); ev.target.disabled = false; check();
    }
  };
  const bots = async (ev) => {
    ev.target.disabled = true;
    try {
      if (st.seek.status === 'waiting') st.seek = await api.cancelSeek(id);
      location.hash = `#/game/${await playBots(st.seek.players, st.seek.edition)}`;
    } catch (err) { announce(err.message, 'error'); ev.target.disabled = false; check(); }
  };
  replace(root, h('section', { class: 'start seek', 'aria-labelledby': 'seek-title' },
    h('h1', { id: 'seek-title' }, t('seek.title')),
    h('p', {}, t('seek.text', { n: st.seek.players, edition: t(`edition.${st.seek.edition}`) })),
    h('div', { class: 'spinner', 'aria-hidden': 'true' }),
    waited,
    h('div', { class: 'buttons' },
      h('button', { type: 'button', onclick: stop }, t('seek.cancel')),
      h('button', { type: 'button', class: 'primary', onclick: bots }, t('seek.bots')))));

  let timer = null;
  function check() {
    if (st.seek.status === 'matched') { location.replace(`#/game/${st.seek.game_id}`); return; }
    if (st.seek.status !== 'waiting') return;
    waited.textContent = t('seek.waited', { s: Math.round((Date.now() - Date.parse(st.seek.created_at)) / 1000) });
    timer = setTimeout(async () => {
      try { st.seek = await api.seekStatus(id); } catch (err) { announce(err.message, 'error'); }
      check();
    }, POLL_MS);
  }
  check();
  return () => clearTimeout(timer);
}
