// The table drawn from one GameView: every seat's stack, the piles, whose decision it is, a
// running challenge as a duel, the scores. Used by the player's table, the watcher and the
// audit viewer; `opts.hooks` lets the player's table hang actions on cards and seats.
import { h } from './dom.js';
import { art } from './pictures.js';
import { cardBack, cardFace, money, nameParts, typeName } from './cards.js';
import { t } from './i18n.js';

// The seat names a game's summary gives: a person's display name, or "Bot 3 (greedy)".
export function seatNames(summary) {
  const kept = (i) => summary.invited?.[i];
  return summary.seats.map((s, i) => !s ? (kept(i)
    ? t('board.keptFor', { n: i + 1, who: summary.names[kept(i)] || t('board.player', { n: i + 1 }) })
    : t('board.openSeat', { n: i + 1 }))
    : s.kind === 'bot' ? t('board.bot', { n: i + 1, level: s.level })
      : summary.names[s.player_id] || t('board.player', { n: i + 1 }));
}

const required = (n) => t(`board.required.${n}`);

export function whoseDecision(view, names) {
  const p = view.pending;
  const who = (n) => names[n];
  switch (p.type) {
    case 'action': return t('board.toAct', { who: who(p.seat), second: p.actions_taken });
    case 'challenge': return t('board.mustAnswer', { who: who(p.awaiting), required: required(p.required) });
    case 'draft_window': return t('board.mayChallengeDraft', { who: who(p.eligible) });
    case 'move_directions': return t('board.choosesDirection', { who: who(p.awaiting[0]) });
    case 'game_over': return t('board.over');
    // In the middle of a command: a delayed watcher or the audit viewer can stop here.
    case 'turn_over': return t('board.turnOver', { who: who(p.seat) });
    case 'flipping': return t('board.flipping');
    case 'not_started': return t('board.dealing');
    default: return '';
  }
}

// The table as it stands round a real one: the others across the top, the piles and what
// just happened (`recent`) in the middle, your seat, hand and moves (`controls`) at the bottom,
// where a phone's thumb and reader find them. `open(seat)` says whether a seat shows its
// whole stack; with `toggle`, its name is a button that opens or closes it (a phone shows
// the others compact).
// The seats: compact on a phone until tapped (one line each, the top set as a card), open on a
// wide screen; a seat tapped open or shut stays so. `redraw` draws the table again.
export function seatFolding(redraw) {
  const narrow = matchMedia('(max-width: 899px)');
  const opened = new Map();
  const isOpen = (seat) => opened.get(seat) ?? !narrow.matches;
  narrow.addEventListener('change', redraw);
  return { isOpen, toggle: (seat) => { opened.set(seat, !isOpen(seat)); redraw(); } };
}

export function board(view, { names, edition, version, deadline, mySeat = null, hooks = {}, hands = null, controls = null, recent = null, open = () => true, toggle = null }) {
  const card = (id, attrs) => cardFace(h, edition, id, attrs);
  const ctx = { view, names, edition, card, mySeat, hooks, hands, open, toggle };
  const me = mySeat === null ? null : view.seats[mySeat];
  return h('section', { class: `board${recent ? ' with-recent' : ''}`, 'aria-label': t('board.table'), dataset: { version } },
    h('div', { class: 'seats opponents' }, view.seats.filter((s) => s !== me).map((s) => seat(s, ctx))),
    h('div', { class: 'centre' },
      h('p', { class: 'turn', id: 'turn' },
        view.status === 'finished' ? t('board.over') : whoseDecision(view, names),
        deadline && view.status !== 'finished' ? [' · ', clock(deadline)] : null),
      h('p', { class: 'meta' }, t('board.round', { n: view.round_no })),
      h('div', { class: 'piles' },
        h('div', { class: 'pile draw' },
          cardBack(h, `${view.draw_count}`, {}), h('span', { class: 'sr-only' }, t('board.cardsSr')),
          h('span', { class: 'caption' }, nameParts(h, t('board.drawPile')))),
        h('div', { class: 'pile discard', ...hooks.discardTarget },
          view.discard_pile.length ? card(view.discard_pile.at(-1)) : h('span', { class: 'card empty' }, t('board.empty')),
          h('span', { class: 'caption' }, t('board.discard', { n: view.discard_pile.length }))),
        view.draft_piles.map((p, i) => h('div', { class: 'pile draft', dataset: { pile: i } },
          p.top ? hooks.pileCard ? hooks.pileCard(p.top, card) : card(p.top) : cardBack(h, p.count ? t('board.faceDown') : t('board.empty')),
          h('span', { class: 'caption' }, t('board.pile', { n: i + 1, count: p.count }))))),
      duel(view, names, edition, card),
      draftWindow(view, names, edition, card)),
    recent,
    me ? h('div', { class: 'seats mine' }, seat(me, ctx)) : null,
    mySeat !== null && view.hand && (view.hand.length || view.status === 'playing') ? h('section', { class: 'hand', 'aria-label': t('board.hand') },
      h('h2', {}, t('board.handN', { n: view.hand.length })),
      h('div', { class: 'cards', role: 'group', 'aria-label': t('board.handCards'), style: `--n:${view.hand.length}` },
        view.hand.map((id) => hooks.handCard ? hooks.handCard(id, card) : card(id)))) : null,
    controls,
    scores(view, names));
}

function seat(s, { view, names, edition, card, mySeat, hooks, hands, open, toggle }) {
  const top = s.stack.at(-1);
  const awaited = view.awaiting.includes(s.seat);
  const shown = open(s.seat);
  const name = [names[s.seat], s.seat === mySeat ? t('waiting.you') : ''];
  return h('section', {
    class: `seat${s.seat === mySeat ? ' me' : ''}${awaited ? ' awaited' : ''}${view.winners.includes(s.seat) ? ' winner' : ''}${shown ? ' open' : ''}`,
    'aria-label': t('board.seat', { n: s.seat + 1, who: names[s.seat] }), dataset: { seat: s.seat }, ...hooks.seatTarget?.(s.seat),
  },
  h('h3', {}, toggle ? h('button', { type: 'button', class: 'seat-toggle', 'aria-expanded': String(shown), 'data-focus': `seat:${s.seat}`, onclick: () => toggle(s.seat) }, name) : name,
    awaited ? h('span', { class: 'badge' }, t('board.deciding')) : ''),
  // In parts: a compact seat shows the stack's value alone.
  h('p', { class: 'meta' }, h('span', {}, t('board.counts', { hand: s.hand_count, sets: s.stack.length })),
    h('span', { class: 'm-stack' }, h('span', { class: 'm-word' }, t('board.stack')), money(s.stack_value)), h('span', {}, t('board.total', { money: money(s.total) })),
    s.round_wins ? h('span', {}, t('board.roundWins', { n: s.round_wins })) : ''),
  // What this seat did last (motion.js fills it): highlighted until the seat moves again.
  h('p', { class: 'last-move', dataset: { seat: s.seat } }),
  top ? fan(s.stack, edition, card) : h('p', { class: 'empty' }, t('board.noSets')),
  shown && s.stack.length ? h('ol', { class: 'stack', reversed: true, 'aria-label': t('board.stackList') },
    [...s.stack].reverse().map((set, i) => h('li', { class: i === s.stack.length - 1 ? 'safe' : '' },
      `${typeName(edition, set.type)} ×${set.count}`,
      i === s.stack.length - 1 ? h('span', { class: 'badge safe' }, t('board.safe')) : null))) : null,
  hands?.[s.seat] ? [h('p', { class: 'caption' }, t('board.theirHand', { n: hands[s.seat].length })),
    h('div', { class: 'cards small', role: 'group', 'aria-label': t('board.theirHandCards', { who: names[s.seat] }) }, hands[s.seat].map((id) => card(id)))] : null,
  hooks.seatActions?.(s.seat));
}

// A stack as cards: the sets under the top fanned out behind it (their pictures show), the
// top set as its top card with the set's other cards peeking out beneath.
function fan(stack, edition, card) {
  const top = stack.at(-1), under = stack.slice(0, -1);
  return h('div', { class: 'fan' },
    under.length ? h('div', { class: 'under', 'aria-hidden': 'true' }, under.slice(-4).map((set, i, shown) =>
      h('span', { class: 'card mini', style: `--i:${i - shown.length}` }, art(set.type)))) : null,
    h('div', { class: 'top-set', style: `--n:${Math.min(top.count, 4)}` }, h('span', { class: 'sr-only' }, t('board.topSet')),
      h('span', { class: 'pile-of', dataset: { count: top.count } }, card(top.top)),
      h('span', { class: 'count' }, `×${top.count}`, h('span', { class: 'sr-only' }, t('board.cardsSr')))));
}

function duel(view, names, edition, card) {
  const p = view.pending;
  if (p.type !== 'challenge') return null;
  const where = t(`board.where.${p.kind === 'draft' || p.kind === 'stack_second' ? p.kind : 'top'}`);
  return h('section', { class: 'duel challenge', 'aria-label': t('board.challenge') },
    h('h2', {}, t('board.duel', { who: names[p.challenger], whom: names[p.defender], set: typeName(edition, p.set_type), where })),
    h('ol', { class: 'pot', 'aria-label': t('board.pot') }, p.pot.map((play) => h('li', {},
      h('span', { class: 'who' }, names[play.seat]), play.cards.map((id) => card(id))))),
    h('p', { class: 'owed' }, t('board.owed', { who: names[p.awaiting], required: required(p.required) })));
}

function draftWindow(view, names, edition, card) {
  if (!view.draft) return null;
  const d = view.draft, p = view.pending;
  return h('section', { class: 'duel draft-window', 'aria-label': t('board.drafted') },
    h('h2', {}, t('board.draftedBy', { who: names[d.drafter], set: typeName(edition, d.set.type) })),
    h('div', { class: 'cards small' }, d.set.cards.map((id) => card(id))),
    p.type === 'draft_window' ? h('p', {}, t('board.mayChallengeIt', { who: names[p.eligible] })) : null);
}

function scores(view, names) {
  if (!view.round_scores.length) return null;
  return h('section', { class: 'scores', 'aria-label': t(view.status === 'finished' ? 'board.final' : 'board.scores') },
    h('h2', {}, t(view.status === 'finished' ? 'board.final' : 'board.scores')),
    h('table', {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.seatCol')),
        view.round_scores.map((_, r) => h('th', { scope: 'col' }, t('board.round', { n: r + 1 }))), h('th', { scope: 'col' }, t('board.totalCol')))),
      h('tbody', {}, view.seats.map((s) => h('tr', { class: view.winners.includes(s.seat) ? 'winner' : '' },
        h('th', { scope: 'row' }, names[s.seat], view.winners.includes(s.seat) ? h('span', { class: 'badge win' }, t('board.winner')) : ''),
        view.round_scores.map((r) => h('td', {}, money(r[s.seat]))),
        h('td', {}, money(s.total)))))));
}

// A countdown to a deadline (ISO time), kept current by one timer for the whole page.
function clock(deadline) {
  const el = h('span', { class: 'clock', dataset: { deadline } });
  tick(el);
  return el;
}

function tick(el) {
  const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
  el.textContent = t('board.left', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` });
  el.classList.toggle('urgent', left <= 10);
}

setInterval(() => document.querySelectorAll('.clock[data-deadline]').forEach(tick), 1000);
