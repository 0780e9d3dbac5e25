// Legal commands (GET /legal-commands, each ready to post as it is) turned into actions a
// person understands: the cards each one uses, the seat it aims at, and a sentence for its
// button. The client never builds a command itself, so it cannot send an illegal one.
import { cardType, typeName } from './cards.js';
import { list, t } from './i18n.js';

// The cards a command takes from the hand (and the draft piles).
export function cardsOf(c) {
  switch (c.type) {
    case 'form_set': return c.hand_cards;
    case 'draft_set': return [c.hand_card, ...c.pile_cards];
    case 'challenge': case 'respond': case 'challenge_draft': return c.cards;
    case 'discard': case 'improve_set': case 'play_swap': case 'play_move': return [c.card];
    default: return [];
  }
}

export const targetOf = (c) => ['challenge', 'play_swap', 'play_move'].includes(c.type) ? c.target_seat : null;

const dir = (d) => t(`dir.${d}`);

export function describe(c, { names, edition, view }) {
  const n = (id) => typeName(edition, id);
  const ns = (ids) => ids.map(n).join(' + ');
  const stack = (seat) => view.seats[seat].stack;
  switch (c.type) {
    case 'form_set': return c.source === 'discard'
      ? t('move.pairDiscard', { card: n(c.hand_cards[0]), top: n(view.discard_pile.at(-1)) })
      : t('move.form', { cards: ns(c.hand_cards) });
    case 'discard': return t('move.discard', { card: n(c.card) });
    case 'challenge': {
      const set = stack(c.target_seat).at(c.position === 'top' ? -1 : -2);
      return t('move.challenge', { who: names[c.target_seat], second: c.position !== 'top', set: set ? n(set.type) : t('move.set'), cards: ns(c.cards) });
    }
    case 'draft_set': {
      const piles = c.pile_cards.map((id) => view.draft_piles.findIndex((p) => p.top === id) + 1);
      return t('move.draft', { card: n(c.hand_card), cards: ns(c.pile_cards), piles: list(piles.map(String)) });
    }
    case 'improve_set': return t('move.improve', { card: n(c.card) });
    case 'play_swap': return t('move.swap', { who: names[c.target_seat] });
    case 'play_move': return c.target_seat === view.viewer ? t('move.moveMine', { dir: dir(c.direction) })
      : t('move.moveTheirs', { who: names[c.target_seat], dir: dir(c.direction) });
    case 'end_turn': return t('move.endTurn');
    case 'respond': return t('move.respond', { cards: ns(c.cards) });
    case 'concede': return t('move.concede');
    case 'challenge_draft': return t('move.challengeDraft', { cards: ns(c.cards) });
    case 'pass_draft': return t('move.passDraft');
    case 'choose_move_direction': return t('move.choose', { dir: dir(c.direction) });
    default: return c.type.replaceAll('_', ' ');
  }
}

// Copies of a card are alike (a card's type is its name and value), so two commands that
// differ only in which copy they take are one move to a player: "Discard Jewels" once, not
// once per Jewels in the hand. The first of each is kept; a picked card narrows the list
// first (`matching`), so the copy sent is the one picked. Draft pile cards keep their ids:
// which pile a card comes from matters.
const HAND = new Set(['hand_cards', 'hand_card', 'cards', 'card']);
const sameMove = (c) => JSON.stringify(c, (k, v) => !HAND.has(k) ? v
  : Array.isArray(v) ? v.map(cardType).sort() : cardType(v));

export function distinct(commands) {
  const seen = new Set();
  return commands.filter((c) => {
    const key = sameMove(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// The commands that use every selected card; with nothing selected, all of them.
export function matching(commands, selected) {
  if (!selected.size) return commands;
  return commands.filter((c) => {
    const used = cardsOf(c);
    return [...selected].every((id) => used.includes(id));
  });
}

// The keyboard at the moves: number keys 1–9 choose the n-th move on offer, and after a move
// the focus comes back to the moves (the first one on offer, else the moves' heading) instead
// of falling to the top of the page when the table is redrawn. `root`: the table's element.
export function keysAtMoves(root) {
  let atMoves = false; // the reader was at the moves: keep them there
  const offered = () => [...root.querySelectorAll('.move-list button.move:not([disabled])')];
  const typing = (el) => el && (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) || el.isContentEditable);
  const onKey = (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || typing(ev.target) || !/^[1-9]$/.test(ev.key)) return;
    const button = offered()[Number(ev.key) - 1];
    if (!button) return;
    ev.preventDefault();
    atMoves = true;
    button.click();
  };
  const onFocus = (ev) => { atMoves = Boolean(ev.target.closest?.('.moves, .game-over')); };
  // After each redraw: focus lost (to the body, or with a removed element) goes back, in a
  // task of its own after the redraw's, so the new table shows no later for it.
  function restore() {
    offered().slice(0, 9).forEach((b, i) => { if (!b.hasAttribute('aria-keyshortcuts')) b.setAttribute('aria-keyshortcuts', String(i + 1)); });
    const active = document.activeElement;
    if (!atMoves || (active && active !== document.body && root.contains(active) && !active.disabled)) return;
    // The first move on offer; else the moves' heading (others deciding), or the result's.
    const target = offered()[0] || root.querySelector('.moves h2, .game-over h2');
    if (!target) return;
    if (!target.matches('button')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }
  let queued = false;
  const back = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    setTimeout(() => { queued = false; restore(); }, 0);
  });
  back.observe(root, { childList: true, subtree: true });
  document.addEventListener('keydown', onKey);
  root.addEventListener('focusin', onFocus);
  return () => { back.disconnect(); document.removeEventListener('keydown', onKey); };
}
