// The page's words in English and German. `t(key, params)` gives the sentence for `key` in the
// reader's language, with `{name}` filled from `params` (a function entry gets `params` whole,
// for plurals). The language is the one the reader chose (the switch in the header, kept in
// this browser), else the browser's (navigator.languages), else English. A German game
// (de_2024) is shown in German unless the reader chose a language.
const KEY = 'cya.lang';
export const LANGUAGES = { en: 'English', de: 'Deutsch' };

const plural = (n, one, many) => (n === 1 ? one : many);

const EN = {
  'skip': 'Skip to the content',
  'nav.site': 'Site', 'nav.api': 'API', 'nav.key': 'Your key', 'nav.getKey': 'Get or use an API key', 'nav.language': 'Language',
  'nav.games': 'My games',
  'loading': 'Loading…', 'error.title': 'Something went wrong', 'error.back': 'Back to the start',
  'start.title': 'Play Cover Your Assets',
  'start.pitch': 'Stack your assets, steal your rivals\' top sets, and be the richest at the table. Play in your browser, no account needed.',
  'start.welcome': ({ name }) => `Welcome back, ${name}`,
  'start.name': 'Your display name', 'start.nameHint': 'Others at the table see it. Leave it empty to play as a guest.',
  'start.players': 'Players at the table', 'start.playersN': ({ n }) => `${n} players`,
  'start.bots': 'Play against bots', 'start.botsHint': ({ n }) => `You and ${n - 1} ${plural(n - 1, 'bot', 'bots')}, ${n === 2 ? 'three rounds, highest total wins' : 'one round, highest score wins'}: a game of a few minutes. Starts at once.`,
  'start.quick': 'Quick play', 'start.quickHint': 'Play people who are looking for a game now, near your rating.',
  'start.invite': 'Invite a friend', 'start.inviteHint': 'A private table and a link to send; the game starts when everyone is seated.',
  'start.custom': 'Custom game', 'start.customHint': 'Choose every rule, the seats and a turn clock.',
  'start.watch': 'Watch the public games', 'start.lobby': 'Your games and public games',
  'start.newKey': 'Get my key', 'start.keyTitle': 'Writing a bot, or playing from elsewhere?',
  'start.keyText': 'Your key is how the service knows you: this browser keeps it. Get one to copy, or use one you have.',
  'start.haveKey': 'Use an existing API key', 'start.useKey': 'Use this key',
  'start.forget': 'Forget the key in this browser', 'start.showKey': 'Show my key',
  'start.hello': ({ name }) => `Hello, ${name}`,
  'start.keyOnce': 'This is your API key. This browser keeps it; copy it somewhere safe to play from elsewhere or to write a bot.',
  'start.yourKey': 'Your API key', 'start.copyKey': 'Copy key', 'start.continue': 'Continue',
  'start.invited': 'You were invited to a game', 'start.invitedText': 'Choose a name (or paste your key) to take your seat.',
  'start.invitedBy': ({ who, n, edition, end }) => `${who} invites you to a ${n}-player game (${edition}, ${end}). `,
  'start.someone': 'Someone', 'start.takeSeat': 'Take my seat', 'start.guest': 'Guest',
  'start.starting': 'Dealing the cards…',
  'copy': 'Copy', 'copied': 'Copied', 'copied.status': 'Copied to the clipboard.',
  'seek.title': 'Looking for players…', 'seek.text': ({ n, edition }) => `A ${n}-player game, ${edition}. You will be seated as soon as enough players are found; this page goes to the table by itself.`,
  'seek.waited': ({ s }) => `Waiting for ${s} s.`, 'seek.cancel': 'Stop looking', 'seek.cancelled': 'You stopped looking.',
  'seek.bots': 'Nobody around? Play against bots instead',
  'edition.en_2022': 'English edition (2022)', 'edition.de_2024': 'German edition (2024)', 'edition.classic_2011': 'Classic edition (2011)',
  'end.to_million': 'first to a million', 'end.quick': 'one round', 'end.highest_after_3_rounds': 'three rounds, highest total',
  'end.first_to_2_round_wins': 'first to win two rounds',
  'lobby.mine': 'My games', 'lobby.none': 'You have no games yet.', 'lobby.public': 'Public games',
  'lobby.noMatch': 'No public game matches.', 'lobby.filter': 'Filter public games', 'lobby.any': 'any',
  'lobby.status': 'Status', 'lobby.edition': 'Edition', 'lobby.end': 'End', 'lobby.players': 'Players',
  'lobby.playTitle': 'Play', 'lobby.playText': 'Watch any public game below as it is played. To play, choose a name: nothing else.',
  'lobby.playNow': 'Play now', 'lobby.new': 'New game', 'lobby.custom': 'Custom game',
  'status.lobby': 'waiting', 'status.playing': 'playing', 'status.finished': 'finished', 'status.expired': 'expired', 'status.abandoned': 'abandoned',
  'lobby.open': ({ n }) => `${n} open ${plural(n, 'seat', 'seats')}`, 'lobby.private': 'private',
  'lobby.gameTitle': ({ n, edition, end }) => `${n}-player game · ${edition} · ${end}`,
  'lobby.results': 'Results', 'lobby.openGame': 'Open', 'lobby.join': 'Join', 'lobby.watchGame': 'Watch', 'lobby.audit': 'Audit',
  'lobby.behind': ({ n }) => `${n} events behind`,
  'custom.title': 'Custom game', 'custom.rules': 'Rules', 'custom.extras': 'Extra rules (not in the 2011 edition)',
  'custom.seats': 'Seats', 'custom.you': 'Seat 1: you', 'custom.seat': ({ n }) => `Seat ${n}`,
  'custom.openSeat': 'open for a person', 'custom.bot': ({ level }) => `${level} bot`,
  'custom.table': 'Table', 'custom.clock': 'Seconds per decision (empty: no clock)',
  'custom.clockHint': 'When time runs out a bot decides for that player, once.',
  'custom.timeoutBot': 'Bot that plays for a player who runs out of time or resigns',
  'custom.handOver': 'Give the seat to that bot after this many timeouts in a row (empty: never)',
  'custom.public': 'Public: listed in the lobby, anyone may watch', 'custom.rated': 'Rated: counts toward the players\' ratings',
  'custom.delay': 'Delay for watchers (events; 0: live)',
  'custom.delayHint': 'Watchers see the game this many events late, so nobody watching can tell a player the cards. Players see it live.',
  'custom.create': 'Create the game', 'custom.default': 'as the edition has it', 'custom.on': 'on', 'custom.off': 'off',
  'custom.random': 'random', 'custom.firstSeat': ({ n }) => `seat ${n}`,
  'waiting.more': ({ n }) => `Waiting for ${n} more ${plural(n, 'player', 'players')}`, 'waiting.all': 'Everyone is seated',
  'waiting.you': ' (you)', 'waiting.public': 'A public game: anyone can join from the lobby.',
  'waiting.private': 'A private game: only people with the invitation link can join.',
  'waiting.link': 'Invitation link', 'waiting.copyLink': 'Copy link', 'waiting.take': 'Take a seat',
  'waiting.start': 'Start the game', 'waiting.startHint': 'You can start once every seat is taken.',
  'waiting.leave': 'Leave this game', 'waiting.share': 'Send this link to a friend: it opens their seat at this table.',
  'end.rematch': 'Rematch', 'end.rematchHint': 'Same rules and players, seats moved one place on.',
  'end.again': 'Play again', 'end.offered': ({ who }) => `${who} offers a rematch.`, 'end.joinRematch': 'Join the rematch',
  'react.title': 'Reactions', 'react.good_game': 'Good game', 'react.well_played': 'Well played',
  'react.nice_steal': 'Nice steal!', 'react.oops': 'Oops',
  'react.said': ({ who, what }) => `${who}: “${what}”`, 'react.wait': 'One reaction every few seconds.',
  'keys.hint': 'Keys 1–9 choose a move.',
  'move.pairDiscard': ({ card, top }) => `Pair ${card} with the discard top (${top})`,
  'move.form': ({ cards }) => `Form a set: ${cards}`, 'move.discard': ({ card }) => `Discard ${card}`,
  'move.challenge': ({ who, second, set, cards }) => `Challenge ${who}'s ${second ? 'second ' : ''}${set} with ${cards}`,
  'move.set': 'set',
  'move.draft': ({ card, cards, piles }) => `Draft ${card} with ${cards} from pile ${piles}`,
  'move.improve': ({ card }) => `Add ${card} to your top set`,
  'move.swap': ({ who }) => `Swap your top set with ${who}'s`,
  'move.moveMine': ({ dir }) => `Move your ${dir}`, 'move.moveTheirs': ({ who, dir }) => `Move ${who}'s ${dir}`,
  'move.endTurn': 'End your turn', 'move.respond': ({ cards }) => `Answer with ${cards}`,
  'move.concede': 'Give up the challenge', 'move.challengeDraft': ({ cards }) => `Challenge the draft with ${cards}`,
  'move.passDraft': 'Let the draft stand', 'move.choose': ({ dir }) => `Choose: ${dir}`,
  'dir.top_to_bottom': 'top set to the bottom', 'dir.bottom_to_top': 'bottom set to the top',

  'opt.players': 'Players', 'opt.edition': 'Edition', 'opt.end_mode': 'How the game ends',
  'opt.tie_policy': 'When the top totals tie', 'tie.extra_round': 'play one more round', 'tie.shared_win': 'share the win',
  'opt.first_player': 'Who starts', 'opt.later_rounds_start': 'Who starts the later rounds',
  'later.rotate_left': 'the next player to the left', 'later.poorest': 'the poorest player',
  'opt.draft_challenge_requires_own_set': 'Challenging a drafted set needs a set of your own',
  'opt.draft_set_first_set_protected': 'A drafted first set is safe',
  'opt.public_set_composition': 'Show every card of every set', 'hint.public_set_composition': 'Off: only each set\'s kind, size and top card.',
  'opt.hand_size_six': 'Six cards in hand', 'opt.two_actions': 'Two actions a turn',
  'opt.no_rechallenge_after_loss': 'No challenge back right after losing one',
  'opt.improve_set': 'Add a matching card to your top set', 'opt.action_cards': 'Swap and Move cards in the deck',
  'opt.penny_jar': 'Penny Jar wilds ($1,000, double in challenges)', 'opt.second_set_challenge': 'The second set from the top can be challenged with a pair',
  'and': 'and',
};


// German is fetched only for a German reader (a third of this module's weight otherwise).
const LOADERS = { de: () => import('./i18n-de.js') };
const DICTIONARIES = { en: EN };

// Loads the reader's dictionary; the page awaits it before it draws (English meanwhile).
export async function ready() {
  const l = lang();
  if (!DICTIONARIES[l] && LOADERS[l]) DICTIONARIES[l] = (await LOADERS[l]()).DE;
}

// The language a game asks for when the reader chose none (a German edition: German).
let gameLanguage = null;

export function chosen() { return localStorage.getItem(KEY); }

export function lang() {
  const pick = chosen() || gameLanguage;
  if (pick in LANGUAGES) return pick;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return 'en';
}

export async function choose(language) {
  localStorage.setItem(KEY, language);
  await ready();
  document.documentElement.lang = lang();
}

// A screen showing a game of `edition` says so: German for de_2024 unless the reader chose.
export async function forEdition(edition) {
  gameLanguage = edition === 'de_2024' ? 'de' : null;
  await ready();
  document.documentElement.lang = lang();
}

export function t(key, params = {}) {
  const entry = DICTIONARIES[lang()]?.[key] ?? EN[key];
  if (entry === undefined) return key;
  if (typeof entry === 'function') return entry(params);
  return entry.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

// "A, B and C" in the reader's language.
export function list(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${t('and')} ${items.at(-1)}`;
}
