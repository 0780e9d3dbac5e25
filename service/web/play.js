// One click to a game: against bots, with a friend (a private table and its link), quick play
// (matchmaking), and again after a game. The defaults are chosen here, in one place.
import { api } from './api.js';
import { lang, t } from './i18n.js';
import { session } from './store.js';

// The edition in the reader's language: German readers get the German cards.
export const editionFor = () => (lang() === 'de' ? 'de_2024' : 'en_2022');
// A new player wants a game that ends in minutes, not the hour "to a million" takes: one round
// (the rulebook's quick game). With two players one round is a handful of turns and turns on a
// single draw, so two play three rounds, summed.
export const endModeFor = (players) => (players === 2 ? 'highest_after_3_rounds' : 'quick');
// Greedy bots play sensibly and at once; the stronger ones are in the custom game.
export const BOT_LEVEL = 'greedy';
export const DEFAULT_PLAYERS = 3;

const rules = (players, edition = editionFor()) => ({ players, edition, end_mode: endModeFor(players) });

// Without a key: one for this name (a guest's, if none), kept in this browser.
export async function ensurePlayer(name) {
  if (session.key()) return;
  const guest = `${t('start.guest')} ${Math.floor(1000 + Math.random() * 9000)}`;
  session.save(await api.createPlayer((name || '').trim() || guest));
}

// You and bots in every other seat, dealt at once: the game id.
export async function playBots(players, edition) {
  const game = await api.createGame({
    ruleset: rules(players, edition), public: false,
    bots: Array.from({ length: players - 1 }, (_, i) => ({ level: BOT_LEVEL, seat: i + 1 })),
  });
  await api.start(game.game_id);
  return game.game_id;
}

// A private table with open seats: its id is the invitation.
export async function inviteFriends(players, edition) {
  const game = await api.createGame({ ruleset: rules(players, edition), public: false });
  return game.game_id;
}

// Quick play: a seek of this kind (unrated: a first game should not cost a rating), ending as
// a game against bots does.
export const seek = (players, edition = editionFor()) => api.seek({ players, edition, rated: false, end_mode: endModeFor(players) });

// The same game again: its rules, its bots where they sat, the other seats open (dealt at once
// when bots fill them).
export async function playAgain(summary) {
  const { rules_version: _, ...ruleset } = summary.ruleset;
  const bots = summary.seats.map((s, seat) => (s?.kind === 'bot' ? { level: s.level, seat } : null)).filter(Boolean);
  const game = await api.createGame({ ruleset, bots, public: summary.public });
  if (bots.length === ruleset.players - 1) await api.start(game.game_id);
  return game.game_id;
}
