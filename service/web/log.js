// The game told in sentences, one per event ("Cathy challenges Ezra's Classic Autos with a
// Gold"), in the reader's language (i18n.js has the sentences as `log.<event type>`).
// `ctx` gives `seat(n)` (a seat's display name), `player(id)` and the `edition`.
import { money, typeName } from './cards.js';
import { list, t } from './i18n.js';

export function sentence(e, ctx) {
  const s = ctx.seat, c = (id) => typeName(ctx.edition, id), cs = (ids) => list(ids.map(c));
  const dir = (d) => t(`dir.${d}`);
  switch (e.type) {
    case 'game_created': return t('log.game_created', { who: ctx.player(e.creator), n: e.seats.length });
    case 'seat_taken': return t('log.seat_taken', { bot: e.controller.kind === 'bot' ? e.controller.level : null, who: e.controller.kind === 'bot' ? '' : ctx.player(e.controller.player_id), n: e.seat + 1 });
    case 'seat_left': return t('log.seat_left', { who: ctx.player(e.player_id), n: e.seat + 1 });
    case 'seat_resigned': return t('log.seat_resigned', { who: ctx.player(e.player_id), level: e.bot_level, n: e.seat + 1 });
    case 'decision_timed_out': return t('log.decision_timed_out', { who: s(e.seat), level: e.bot_level });
    case 'clock_restarted': return t('log.clock_restarted', { who: s(e.seat) });
    case 'seat_handed_to_bot': return t('log.seat_handed_to_bot', { who: s(e.seat), level: e.level });
    case 'client_seed_set': return t('log.client_seed_set', { n: e.seat + 1 });
    case 'game_started': return t('log.game_started', { none: e.client_seeds ? e.client_seeds.filter((x) => x.source === 'none').length : null });
    case 'round_started': return t('log.round_started', { round: e.round_no, n: e.hand_size, who: s(e.first_player) });
    case 'turn_started': return t('log.turn_started', { who: s(e.seat) });
    // With hidden sets (`secret`, rules version 3) others see only the face-up card(s).
    case 'set_formed': return e.source === 'discard'
      ? t('log.set_paired', { who: s(e.seat), card: e.cards.length > 1 ? c(e.cards[0]) : null, top: c(e.cards.at(-1)) })
      : t('log.set_formed', { who: s(e.seat), set: c(e.set_type), cards: cs(e.cards), hidden: e.cards.length < 2 });
    case 'card_discarded': return t('log.card_discarded', { who: s(e.seat), card: c(e.card) });
    case 'cards_drawn': return t('log.cards_drawn', { who: s(e.seat), cards: e.cards ? cs(e.cards) : null, n: e.count });
    case 'challenge_opened': return t('log.challenge_opened', { who: s(e.challenger), whom: s(e.defender), set: c(e.set_type), draft: e.kind === 'draft', cards: cs(e.cards) });
    case 'challenge_answered': return t('log.challenge_answered', { who: s(e.seat), cards: cs(e.cards), required: e.required });
    case 'challenge_conceded': return t('log.challenge_conceded', { who: s(e.seat), auto: e.auto });
    case 'set_drafted': return t('log.set_drafted', { who: s(e.seat), set: c(e.set_type), card: c(e.hand_card), cards: cs(e.pile_cards.map((x) => x.card)) });
    case 'draft_challenge_passed': return t('log.draft_challenge_passed', { who: s(e.seat), auto: e.auto });
    case 'pile_card_revealed': return t('log.pile_card_revealed', { card: c(e.card), pile: e.pile + 1 });
    case 'revealed_swap_applied': return t('log.revealed_swap_applied', { pile: e.pile + 1, a: s(e.seats[0]), b: s(e.seats[1]) });
    case 'revealed_action_returned': return t('log.revealed_action_returned', { pile: e.pile + 1 });
    case 'revealed_action_discarded': return t('log.revealed_action_discarded', { card: c(e.card), pile: e.pile + 1 });
    case 'revealed_move_awaiting_choices': return t('log.revealed_move_awaiting_choices', { pile: e.pile + 1, who: list(e.choosers.map(s)), n: e.choosers.length });
    case 'move_direction_chosen': return t('log.move_direction_chosen', { who: s(e.seat), whom: s(e.target_seat), dir: dir(e.direction) });
    case 'revealed_move_applied': return t('log.revealed_move_applied', { pile: e.pile + 1 });
    case 'set_improved': return t('log.set_improved', { who: s(e.seat), card: c(e.card) });
    case 'swap_played': return t('log.swap_played', { who: s(e.seat), whom: s(e.target_seat) });
    case 'move_played': return t('log.move_played', { who: s(e.seat), whom: s(e.target_seat), dir: dir(e.direction) });
    case 'turn_ended': return t('log.turn_ended', { who: s(e.seat), auto: e.auto });
    case 'round_ended': return t('log.round_ended', { round: e.round_no, scores: list(e.scores.map((v, i) => `${s(i)} ${money(v)}`)) });
    case 'game_ended': return t('log.game_ended', { who: list(e.winners.map(s)), n: e.winners.length, money: money(Math.max(...e.totals)) });
    case 'reaction_sent': return t('react.said', { who: s(e.seat), what: t(`react.${e.reaction}`) });
    default: return `${e.type.replaceAll('_', ' ')}.`;
  }
}
