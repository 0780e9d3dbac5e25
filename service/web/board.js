// The table drawn from one GameView: every seat's stack, the piles, whose decision it is, a
// running challenge as a duel, the scores. Used by the player's table, the watcher and the
// audit viewer; `opts.hooks` lets the player's table hang actions on cards and seats.
import { h } from './dom.js';
import { art } from './pictures.js';
import { cardBack, cardFace, money, typeName } from './cards.js';

// The seat names a game's summary gives: a person's display name, or "Bot 3 (greedy)".
export function seatNames(summary) {
  return summary.seats.map((s, i) => !s ? `Open seat ${i + 1}`
    : s.kind === 'bot' ? `Bot ${i + 1} (${s.level})`
      : summary.names[s.player_id] || `Player ${i + 1}`);
}

const REQUIRED = { 1: 'a single', 2: 'a double' };

export function whoseDecision(view, names) {
  const p = view.pending;
  const who = (n) => names[n];
  switch (p.type) {
    case 'action': return `${who(p.seat)} to act${p.actions_taken ? ' (second action or end turn)' : ''}`;
    case 'challenge': return `${who(p.awaiting)} must answer the challenge with ${REQUIRED[p.required]} or give up`;
    case 'draft_window': return `${who(p.eligible)} may challenge the draft or let it stand`;
    case 'move_directions': return `${who(p.awaiting[0])} chooses a direction for the Move`;
    case 'game_over': return 'The game is over';
    // In the middle of a command: a delayed watcher or the audit viewer can stop here.
    case 'turn_over': return `${who(p.seat)}'s turn is over: hands are refilled`;
    case 'flipping': return 'Draft piles are turned face up';
    case 'not_started': return 'The next round is being dealt';
    default: return '';
  }
}

// The table as it stands round a real one: the others across the top, the piles and what
// just happened (`recent`) in the middle, your seat, hand and moves (`controls`) at the bottom,
// where a phone's thumb and reader find them. `open(seat)` says whether a seat shows its
// whole stack; with `toggle`, its name is a button that opens or closes it (a phone shows
// the others compact).
export function board(view, { names, edition, version, deadline, mySeat = null, hooks = {}, hands = null, controls = null, recent = null, open = () => true, toggle = null }) {
  const card = (id, attrs) => cardFace(h, edition, id, attrs);
  const ctx = { view, names, edition, card, mySeat, hooks, hands, open, toggle };
  const me = mySeat === null ? null : view.seats[mySeat];
  return h('section', { class: `board${recent ? ' with-recent' : ''}`, 'aria-label': 'The table', dataset: { version } },
    h('div', { class: 'seats opponents' }, view.seats.filter((s) => s !== me).map((s) => seat(s, ctx))),
    h('div', { class: 'centre' },
      h('p', { class: 'turn', id: 'turn' },
        view.status === 'finished' ? 'The game is over' : whoseDecision(view, names),
        deadline && view.status !== 'finished' ? [' · ', clock(deadline)] : null),
      h('p', { class: 'meta' }, `Round ${view.round_no}`),
      h('div', { class: 'piles' },
        h('div', { class: 'pile draw' },
          cardBack(h, `${view.draw_count}`, {}), h('span', { class: 'sr-only' }, ' cards'),
          h('span', { class: 'caption' }, 'Draw pile')),
        h('div', { class: 'pile discard', ...hooks.discardTarget },
          view.discard_pile.length ? card(view.discard_pile.at(-1)) : h('span', { class: 'card empty' }, 'empty'),
          h('span', { class: 'caption' }, `Discard (${view.discard_pile.length})`)),
        view.draft_piles.map((p, i) => h('div', { class: 'pile draft', dataset: { pile: i } },
          p.top ? hooks.pileCard ? hooks.pileCard(p.top, card) : card(p.top) : cardBack(h, p.count ? 'face down' : 'empty'),
          h('span', { class: 'caption' }, `Pile ${i + 1} (${p.count})`)))),
      duel(view, names, edition, card),
      draftWindow(view, names, edition, card)),
    recent,
    me ? h('div', { class: 'seats mine' }, seat(me, ctx)) : null,
    mySeat !== null && view.hand && (view.hand.length || view.status === 'playing') ? h('section', { class: 'hand', 'aria-label': 'Your hand' },
      h('h2', {}, `Your hand (${view.hand.length})`),
      h('div', { class: 'cards', role: 'group', 'aria-label': 'Cards in your hand' },
        view.hand.map((id) => hooks.handCard ? hooks.handCard(id, card) : card(id)))) : null,
    controls,
    scores(view, names));
}

function seat(s, { view, names, edition, card, mySeat, hooks, hands, open, toggle }) {
  const top = s.stack.at(-1);
  const awaited = view.awaiting.includes(s.seat);
  const shown = open(s.seat);
  const name = [names[s.seat], s.seat === mySeat ? ' (you)' : ''];
  return h('section', {
    class: `seat${s.seat === mySeat ? ' me' : ''}${awaited ? ' awaited' : ''}${view.winners.includes(s.seat) ? ' winner' : ''}${shown ? ' open' : ''}`,
    'aria-label': `Seat ${s.seat + 1}: ${names[s.seat]}`, dataset: { seat: s.seat }, ...hooks.seatTarget?.(s.seat),
  },
  h('h3', {}, toggle ? h('button', { type: 'button', class: 'seat-toggle', 'aria-expanded': String(shown), 'data-focus': `seat:${s.seat}`, onclick: () => toggle(s.seat) }, name) : name,
    awaited ? h('span', { class: 'badge' }, 'deciding') : ''),
  // In parts: a compact seat shows the stack's value alone.
  h('p', { class: 'meta' }, h('span', {}, `${s.hand_count} in hand · ${s.stack.length} set${s.stack.length === 1 ? '' : 's'} · `),
    h('span', { class: 'm-stack' }, h('span', { class: 'm-word' }, 'stack '), money(s.stack_value)), h('span', {}, ` · total ${money(s.total)}`),
    s.round_wins ? h('span', {}, ` · ${s.round_wins} round win${s.round_wins === 1 ? '' : 's'}`) : ''),
  // What this seat did last (motion.js fills it): highlighted until the seat moves again.
  h('p', { class: 'last-move', dataset: { seat: s.seat } }),
  top ? fan(s.stack, edition, card) : h('p', { class: 'empty' }, 'No sets yet'),
  shown && s.stack.length ? h('ol', { class: 'stack', reversed: true, 'aria-label': 'Stack, top first' },
    [...s.stack].reverse().map((set, i) => h('li', { class: i === s.stack.length - 1 ? 'safe' : '' },
      `${typeName(edition, set.type)} ×${set.count}`,
      i === s.stack.length - 1 ? h('span', { class: 'badge safe' }, 'safe') : null))) : null,
  hands?.[s.seat] ? [h('p', { class: 'caption' }, `Hand (${hands[s.seat].length})`),
    h('div', { class: 'cards small', role: 'group', 'aria-label': `${names[s.seat]}'s hand` }, hands[s.seat].map((id) => card(id)))] : null,
  hooks.seatActions?.(s.seat));
}

// A stack as cards: the sets under the top fanned out behind it (their pictures show), the
// top set as its top card with the set's other cards peeking out beneath.
function fan(stack, edition, card) {
  const top = stack.at(-1), under = stack.slice(0, -1);
  return h('div', { class: 'fan' },
    under.length ? h('div', { class: 'under', 'aria-hidden': 'true' }, under.slice(-4).map((set, i, shown) =>
      h('span', { class: 'card mini', style: `--i:${i - shown.length}` }, art(set.type)))) : null,
    h('div', { class: 'top-set', style: `--n:${Math.min(top.count, 4)}` }, h('span', { class: 'sr-only' }, 'Top set: '),
      h('span', { class: 'pile-of', dataset: { count: top.count } }, card(top.top)),
      h('span', { class: 'count' }, `×${top.count}`, h('span', { class: 'sr-only' }, ' cards'))));
}

function duel(view, names, edition, card) {
  const p = view.pending;
  if (p.type !== 'challenge') return null;
  const where = p.kind === 'draft' ? 'drafted set' : p.kind === 'stack_second' ? 'second set' : 'top set';
  return h('section', { class: 'duel', 'aria-label': 'Challenge' },
    h('h2', {}, `${names[p.challenger]} challenges ${names[p.defender]}'s ${typeName(edition, p.set_type)} (${where})`),
    h('ol', { class: 'pot', 'aria-label': 'Cards played so far' }, p.pot.map((play) => h('li', {},
      h('span', { class: 'who' }, names[play.seat]), play.cards.map((id) => card(id))))),
    h('p', { class: 'owed' }, `${names[p.awaiting]} must answer with ${REQUIRED[p.required]} or give up.`));
}

function draftWindow(view, names, edition, card) {
  if (!view.draft) return null;
  const d = view.draft, p = view.pending;
  return h('section', { class: 'duel draft-window', 'aria-label': 'Drafted set' },
    h('h2', {}, `${names[d.drafter]} drafted ${typeName(edition, d.set.type)}`),
    h('div', { class: 'cards small' }, d.set.cards.map((id) => card(id))),
    p.type === 'draft_window' ? h('p', {}, `${names[p.eligible]} may challenge it or let it stand.`) : null);
}

function scores(view, names) {
  if (!view.round_scores.length) return null;
  return h('section', { class: 'scores', 'aria-label': view.status === 'finished' ? 'Final scores' : 'Scores' },
    h('h2', {}, view.status === 'finished' ? 'Final scores' : 'Scores'),
    h('table', {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Seat'),
        view.round_scores.map((_, r) => h('th', { scope: 'col' }, `Round ${r + 1}`)), h('th', { scope: 'col' }, 'Total'))),
      h('tbody', {}, view.seats.map((s) => h('tr', { class: view.winners.includes(s.seat) ? 'winner' : '' },
        h('th', { scope: 'row' }, names[s.seat], view.winners.includes(s.seat) ? h('span', { class: 'badge win' }, 'winner') : ''),
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
  el.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`;
  el.classList.toggle('urgent', left <= 10);
}

setInterval(() => document.querySelectorAll('.clock[data-deadline]').forEach(tick), 1000);
