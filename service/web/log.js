// The game told in sentences, one per event ("Cathy challenges Ezra's Classic Autos with a
// Gold"). `ctx` gives `seat(n)` (a seat's display name), `player(id)` and the `edition`.
import { money, typeName } from './cards.js';
import { t } from './i18n.js';

const list = (items) => items.length <= 1 ? items.join('')
  : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
const DIRECTION = { top_to_bottom: 'top set to the bottom', bottom_to_top: 'bottom set to the top' };
const PLAY = { 1: 'a single', 2: 'a double' };
const a = (name) => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;

export function sentence(e, ctx) {
  const s = ctx.seat, c = (id) => typeName(ctx.edition, id), ac = (id) => a(c(id));
  const cs = (ids) => list(ids.map(c));
  switch (e.type) {
    case 'game_created': return `${ctx.player(e.creator)} created the game for ${e.seats.length} players.`;
    case 'seat_taken': return `${e.controller.kind === 'bot' ? `A ${e.controller.level} bot` : ctx.player(e.controller.player_id)} took seat ${e.seat + 1}.`;
    case 'seat_left': return `${ctx.player(e.player_id)} left seat ${e.seat + 1}.`;
    case 'seat_resigned': return `${ctx.player(e.player_id)} resigned; a ${e.bot_level} bot plays seat ${e.seat + 1}.`;
    case 'decision_timed_out': return `${s(e.seat)} ran out of time; a ${e.bot_level} bot decides instead.`;
    case 'clock_restarted': return `The service was away when ${s(e.seat)}'s clock ran out: the clock starts again.`;
    case 'seat_handed_to_bot': return `${s(e.seat)} ran out of time too often; a ${e.level} bot plays the seat.`;
    case 'client_seed_set': return `Seat ${e.seat + 1} set its client seed.`;
    case 'game_started': return e.client_seeds
      ? `The game started: every seat's client seed is now public (${e.client_seeds.filter((x) => x.source === 'none').length} sent none).`
      : 'The game started.';
    case 'round_started': return `Round ${e.round_no} is dealt, ${e.hand_size} cards each; ${s(e.first_player)} begins.`;
    case 'turn_started': return `${s(e.seat)}'s turn.`;
    // With hidden sets (`secret`, rules version 3) others see only the face-up card(s).
    case 'set_formed': return e.source === 'discard'
      ? `${s(e.seat)} pairs ${e.cards.length > 1 ? ac(e.cards[0]) : 'a hidden card'} with the ${c(e.cards.at(-1))} from the discard pile.`
      : `${s(e.seat)} forms a set of ${typeName(ctx.edition, e.set_type)} with ${cs(e.cards)}${e.cards.length < 2 ? ' and a hidden card' : ''}.`;
    case 'card_discarded': return `${s(e.seat)} discards ${ac(e.card)}.`;
    case 'cards_drawn': return e.cards
      ? `${s(e.seat)} draws ${cs(e.cards)}.`
      : `${s(e.seat)} draws ${e.count} card${e.count === 1 ? '' : 's'}.`;
    case 'challenge_opened': return `${s(e.challenger)} challenges ${s(e.defender)}'s ${typeName(ctx.edition, e.set_type)}${e.kind === 'draft' ? ' (just drafted)' : ''} with ${cs(e.cards)}.`;
    case 'challenge_answered': return `${s(e.seat)} answers with ${cs(e.cards)}; ${PLAY[e.required] || 'a play'} is owed back.`;
    case 'challenge_conceded': return `${s(e.seat)} ${e.auto ? 'cannot answer and loses' : 'gives up'} the challenge.`;
    case 'set_drafted': return `${s(e.seat)} drafts ${typeName(ctx.edition, e.set_type)}: ${ac(e.hand_card)} with ${cs(e.pile_cards.map((p) => p.card))} from the piles.`;
    case 'draft_challenge_passed': return `${s(e.seat)} ${e.auto ? 'cannot challenge' : 'lets'} the draft${e.auto ? '' : ' stand'}.`;
    case 'pile_card_revealed': return `${a(c(e.card)).replace(/^a/, 'A')} is turned up on pile ${e.pile + 1}.`;
    case 'revealed_swap_applied': return `A Swap on pile ${e.pile + 1} swaps the top sets of ${s(e.seats[0])} and ${s(e.seats[1])}.`;
    case 'revealed_action_returned': return `The Swap on pile ${e.pile + 1} cannot apply and goes back into the pile.`;
    case 'revealed_action_discarded': return `The ${c(e.card)} on pile ${e.pile + 1} has nothing to act on and leaves play.`;
    case 'revealed_move_awaiting_choices': return `A Move is turned up on pile ${e.pile + 1}: ${list(e.choosers.map(s))} choose${e.choosers.length === 1 ? 's' : ''} a direction.`;
    case 'move_direction_chosen': return `${s(e.seat)} moves ${s(e.target_seat)}'s ${DIRECTION[e.direction]}.`;
    case 'revealed_move_applied': return `The Move on pile ${e.pile + 1} is applied.`;
    case 'set_improved': return `${s(e.seat)} adds ${ac(e.card)} to their top set.`;
    case 'swap_played': return `${s(e.seat)} plays a Swap: their top set trades places with ${s(e.target_seat)}'s.`;
    case 'move_played': return `${s(e.seat)} plays a Move on ${s(e.target_seat)}'s stack: ${DIRECTION[e.direction]}.`;
    case 'turn_ended': return `${s(e.seat)} ends the turn${e.auto ? ' (no card left to act with)' : ''}.`;
    case 'round_ended': return `Round ${e.round_no} is over: ${list(e.scores.map((v, i) => `${s(i)} ${money(v)}`))}.`;
    case 'game_ended': return `The game is over. ${list(e.winners.map(s))} win${e.winners.length === 1 ? 's' : ''} with ${money(Math.max(...e.totals))}.`;
    case 'reaction_sent': return t('react.said', { who: s(e.seat), what: t(`react.${e.reaction}`) });
    default: return `${e.type.replaceAll('_', ' ')}.`;
  }
}
