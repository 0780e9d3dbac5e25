// A random bot: any legal command.
//
//     npx cya-bot play examples/random_bot.ts --server http://127.0.0.1:8000 --new 4p \
//         --bots greedy,random,random --games 20
import type { Command, GameView } from "cya-client";

/** Called whenever the decision is yours: your view of the game and every command you may send
 * now, each ready to post. Return one of them. */
export function choose(view: GameView, legal: Command[]): Command {
  return legal[Math.floor(Math.random() * legal.length)]!;
}
