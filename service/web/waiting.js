// Before the deal: who sits where, the invitation link, and Start (creator), Take a seat or
// Leave. Part of the table screen (table.js), which switches to the game once it starts.
import { api } from './api.js';
import { announce, copyButton, h } from './dom.js';
import { seatNames } from './board.js';
import { t } from './i18n.js';
import { session } from './store.js';

export function waitingRoom(summary, { onChanged }) {
  const me = session.playerId();
  const names = seatNames(summary);
  const mine = summary.seats.findIndex((s) => s?.kind === 'human' && s.player_id === me);
  const open = summary.seats.filter((s) => !s).length;
  const link = `${location.origin}${location.pathname}#/join/${summary.game_id}`;
  const act = (fn, after) => async (ev) => {
    ev.target.disabled = true;
    try {
      await fn();
      if (after) return after(); // off to another screen: this one is done
    } catch (err) { announce(err.message, 'error'); ev.target.disabled = false; }
    onChanged();
  };
  return h('section', { class: 'waiting', 'aria-labelledby': 'waiting-title' },
    h('h2', { id: 'waiting-title' }, open ? t('waiting.more', { n: open }) : t('waiting.all')),
    h('ol', { class: 'seat-list' }, summary.seats.map((s, i) => h('li', {}, names[i], i === mine ? t('waiting.you') : ''))),
    h('p', {}, summary.public ? t('waiting.public') : t('waiting.private')),
    open ? h('p', { class: 'hint', id: 'invite-help' }, t('waiting.share')) : null,
    h('div', { class: 'invite' },
      h('label', { for: 'invite-link' }, t('waiting.link')),
      h('input', { id: 'invite-link', readonly: true, value: link, 'aria-describedby': open ? 'invite-help' : null }),
      copyButton(() => link, t('waiting.copyLink'))),
    h('div', { class: 'buttons' },
      mine < 0 && open ? h('button', { class: 'primary', 'data-focus': 'take-seat', onclick: act(() => api.join(summary.game_id)) }, t('waiting.take')) : null,
      summary.creator === me && !open ? h('button', { class: 'primary', 'data-focus': 'start', onclick: act(() => api.start(summary.game_id)) }, t('waiting.start')) : null,
      summary.creator === me && open ? h('p', { class: 'hint' }, t('waiting.startHint')) : null,
      mine >= 0 ? h('button', { 'data-focus': 'leave', onclick: act(() => api.leave(summary.game_id), () => { location.hash = '#/lobby'; }) }, t('waiting.leave')) : null));
}
