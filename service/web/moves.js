// Legal commands (GET /legal-commands, each ready to post as it is) turned into actions a
// person understands: the cards each one uses, the seat it aims at, and a sentence for its
// button. The client never builds a command itself, so it cannot send an illegal one.
import { cardType, typeName } from './cards.js';

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

const DIRECTION = { top_to_bottom: 'top set to the bottom', bottom_to_top: 'bottom set to the top' };

export function describe(c, { names, edition, view }) {
  const n = (id) => typeName(edition, id);
  const ns = (ids) => ids.map(n).join(' + ');
  const stack = (seat) => view.seats[seat].stack;
  switch (c.type) {
    case 'form_set': return c.source === 'discard'
      ? `Pair ${n(c.hand_cards[0])} with the discard top (${n(view.discard_pile.at(-1))})`
      : `Form a set: ${ns(c.hand_cards)}`;
    case 'discard': return `Discard ${n(c.card)}`;
    case 'challenge': {
      const set = stack(c.target_seat).at(c.position === 'top' ? -1 : -2);
      return `Challenge ${names[c.target_seat]}'s ${c.position === 'top' ? '' : 'second '}${set ? n(set.type) : 'set'} with ${ns(c.cards)}`;
    }
    case 'draft_set': {
      const piles = c.pile_cards.map((id) => view.draft_piles.findIndex((p) => p.top === id) + 1);
      return `Draft ${n(c.hand_card)} with ${ns(c.pile_cards)} from pile ${piles.join(' and ')}`;
    }
    case 'improve_set': return `Add ${n(c.card)} to your top set`;
    case 'play_swap': return `Swap your top set with ${names[c.target_seat]}'s`;
    case 'play_move': return `Move ${c.target_seat === view.viewer ? 'your' : `${names[c.target_seat]}'s`} ${DIRECTION[c.direction]}`;
    case 'end_turn': return 'End your turn';
    case 'respond': return `Answer with ${ns(c.cards)}`;
    case 'concede': return 'Give up the challenge';
    case 'challenge_draft': return `Challenge the draft with ${ns(c.cards)}`;
    case 'pass_draft': return 'Let the draft stand';
    case 'choose_move_direction': return `Choose: ${DIRECTION[c.direction]}`;
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
