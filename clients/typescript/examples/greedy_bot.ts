// A greedy bot: form sets and take sets when it can, defend cheaply, never waste a wild.
//
//     npx cya-bot play examples/greedy_bot.ts --new 4p --bots greedy,random,random --games 20
import type { Command, GameView } from "cya-client";

const WILDS = ["gold", "silver", "penny_jar"]; // card ids are `<type>#<n>`, e.g. `gold#2`

const isWild = (card: string): boolean => WILDS.includes(card.split("#")[0]!);
const wilds = (cards: string[]): number => cards.filter(isWild).length;

export function score(command: Command, view: GameView): number {
  switch (command.type) {
    case "form_set": // a new set, better from the discard
      return 10 + (command.source === "discard" ? 2 : 0) - 3 * wilds(command.hand_cards);
    case "challenge": // steal a set, with assets rather than wilds
      return 8 - 3 * wilds(command.cards);
    case "respond": // keeping a set is worth a card
      return 6 - 2 * wilds(command.cards);
    case "concede":
      return 1;
    case "discard": // throw away what is worth least
      return isWild(command.card) ? -5 : 0;
    default: // drafts, action cards, ending the turn, move directions
      return 2;
  }
}

export function choose(view: GameView, legal: Command[]): Command {
  let best = legal[0]!;
  let bestKey = -Infinity;
  for (const command of legal) {
    const key = score(command, view) + Math.random() / 10; // ties broken at random
    if (key > bestKey) [best, bestKey] = [command, key];
  }
  return best;
}
