// The page's words in English and German. `t(key, params)` gives the sentence for `key` in the
// reader's language, with `{name}` filled from `params` (a function entry gets `params` whole,
// for plurals). The language is the one the reader chose (the switch in the header, kept in
// this browser), else the browser's (navigator.languages), else English. A German game
// (de_2024) is shown in German unless the reader chose a language.
const KEY = 'cya.lang';
export const LANGUAGES = { en: 'English', de: 'Deutsch' };

const plural = (n, one, many) => (n === 1 ? one : many);
const an = (name) => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;

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

  // The log (log.js): one sentence per event.
  'log.game_created': ({ who, n }) => `${who} created the game for ${n} players.`,
  'log.seat_taken': ({ bot, who, n }) => `${bot ? `A ${bot} bot` : who} took seat ${n}.`,
  'log.seat_left': ({ who, n }) => `${who} left seat ${n}.`,
  'log.seat_resigned': ({ who, level, n }) => `${who} resigned; a ${level} bot plays seat ${n}.`,
  'log.decision_timed_out': ({ who, level }) => `${who} ran out of time; a ${level} bot decides instead.`,
  'log.clock_restarted': ({ who }) => `The service was away when ${who}'s clock ran out: the clock starts again.`,
  'log.seat_handed_to_bot': ({ who, level }) => `${who} ran out of time too often; a ${level} bot plays the seat.`,
  'log.client_seed_set': ({ n }) => `Seat ${n} set its client seed.`,
  'log.game_started': ({ none }) => (none === null ? 'The game started.'
    : `The game started: every seat's client seed is now public (${none} sent none).`),
  'log.round_started': ({ round, n, who }) => `Round ${round} is dealt, ${n} cards each; ${who} begins.`,
  'log.turn_started': ({ who }) => `${who}'s turn.`,
  'log.set_paired': ({ who, card, top }) => `${who} pairs ${card ? an(card) : 'a hidden card'} with the ${top} from the discard pile.`,
  'log.set_formed': ({ who, set, cards, hidden }) => `${who} forms a set of ${set} with ${cards}${hidden ? ' and a hidden card' : ''}.`,
  'log.card_discarded': ({ who, card }) => `${who} discards ${an(card)}.`,
  'log.cards_drawn': ({ who, cards, n }) => (cards ? `${who} draws ${cards}.` : `${who} draws ${n} card${n === 1 ? '' : 's'}.`),
  'log.challenge_opened': ({ who, whom, set, draft, cards }) => `${who} challenges ${whom}'s ${set}${draft ? ' (just drafted)' : ''} with ${cards}.`,
  'log.challenge_answered': ({ who, cards, required }) => `${who} answers with ${cards}; ${{ 1: 'a single', 2: 'a double' }[required] || 'a play'} is owed back.`,
  'log.challenge_conceded': ({ who, auto }) => `${who} ${auto ? 'cannot answer and loses' : 'gives up'} the challenge.`,
  'log.set_drafted': ({ who, set, card, cards }) => `${who} drafts ${set}: ${an(card)} with ${cards} from the piles.`,
  'log.draft_challenge_passed': ({ who, auto }) => `${who} ${auto ? 'cannot challenge' : 'lets'} the draft${auto ? '' : ' stand'}.`,
  'log.pile_card_revealed': ({ card, pile }) => `${an(card).replace(/^a/, 'A')} is turned up on pile ${pile}.`,
  'log.revealed_swap_applied': ({ pile, a, b }) => `A Swap on pile ${pile} swaps the top sets of ${a} and ${b}.`,
  'log.revealed_action_returned': ({ pile }) => `The Swap on pile ${pile} cannot apply and goes back into the pile.`,
  'log.revealed_action_discarded': ({ card, pile }) => `The ${card} on pile ${pile} has nothing to act on and leaves play.`,
  'log.revealed_move_awaiting_choices': ({ pile, who, n }) => `A Move is turned up on pile ${pile}: ${who} choose${n === 1 ? 's' : ''} a direction.`,
  'log.move_direction_chosen': ({ who, whom, dir }) => `${who} moves ${whom}'s ${dir}.`,
  'log.revealed_move_applied': ({ pile }) => `The Move on pile ${pile} is applied.`,
  'log.set_improved': ({ who, card }) => `${who} adds ${an(card)} to their top set.`,
  'log.swap_played': ({ who, whom }) => `${who} plays a Swap: their top set trades places with ${whom}'s.`,
  'log.move_played': ({ who, whom, dir }) => `${who} plays a Move on ${whom}'s stack: ${dir}.`,
  'log.turn_ended': ({ who, auto }) => `${who} ends the turn${auto ? ' (no card left to act with)' : ''}.`,
  'log.round_ended': ({ round, scores }) => `Round ${round} is over: ${scores}.`,
  'log.game_ended': ({ who, n, money }) => `The game is over. ${who} win${n === 1 ? 's' : ''} with ${money}.`,
  'log.title': 'Game log', 'log.region': 'Game log, oldest first',
  'recent.title': 'Last events', 'recent.skip': 'Skip » ',

  // The table (board.js).
  'board.openSeat': ({ n }) => `Open seat ${n}`, 'board.keptFor': ({ n, who }) => `Seat ${n}, kept for ${who}`, 'board.bot': ({ n, level }) => `Bot ${n} (${level})`, 'board.player': ({ n }) => `Player ${n}`,
  'board.required.1': 'a single', 'board.required.2': 'a double',
  'board.toAct': ({ who, second }) => `${who} to act${second ? ' (second action or end turn)' : ''}`,
  'board.mustAnswer': ({ who, required }) => `${who} must answer the challenge with ${required} or give up`,
  'board.mayChallengeDraft': ({ who }) => `${who} may challenge the draft or let it stand`,
  'board.choosesDirection': ({ who }) => `${who} chooses a direction for the Move`,
  'board.over': 'The game is over', 'board.turnOver': ({ who }) => `${who}'s turn is over: hands are refilled`,
  'board.flipping': 'Draft piles are turned face up', 'board.dealing': 'The next round is being dealt',
  'board.table': 'The table', 'board.round': ({ n }) => `Round ${n}`, 'board.cardsSr': ' cards', 'board.drawPile': 'Draw pile',
  'board.empty': 'empty', 'board.discard': ({ n }) => `Discard (${n})`, 'board.faceDown': 'face down',
  'board.pile': ({ n, count }) => `Pile ${n} (${count})`, 'board.hand': 'Your hand', 'board.handN': ({ n }) => `Your hand (${n})`,
  'board.handCards': 'Cards in your hand', 'board.seat': ({ n, who }) => `Seat ${n}: ${who}`, 'board.deciding': 'deciding',
  'board.counts': ({ hand, sets }) => `${hand} in hand · ${sets} set${sets === 1 ? '' : 's'} · `, 'board.stack': 'stack ',
  'board.total': ({ money }) => ` · total ${money}`, 'board.roundWins': ({ n }) => ` · ${n} round win${n === 1 ? '' : 's'}`,
  'board.noSets': 'No sets yet', 'board.stackList': 'Stack, top first', 'board.safe': 'safe',
  'board.theirHand': ({ n }) => `Hand (${n})`, 'board.theirHandCards': ({ who }) => `${who}'s hand`, 'board.topSet': 'Top set: ',
  'board.where.draft': 'drafted set', 'board.where.stack_second': 'second set', 'board.where.top': 'top set',
  'board.challenge': 'Challenge', 'board.duel': ({ who, whom, set, where }) => `${who} challenges ${whom}'s ${set} (${where})`,
  'board.pot': 'Cards played so far', 'board.owed': ({ who, required }) => `${who} must answer with ${required} or give up.`,
  'board.drafted': 'Drafted set', 'board.draftedBy': ({ who, set }) => `${who} drafted ${set}`,
  'board.mayChallengeIt': ({ who }) => `${who} may challenge it or let it stand.`,
  'board.final': 'Final scores', 'board.scores': 'Scores', 'board.seatCol': 'Seat', 'board.totalCol': 'Total', 'board.winner': 'winner',
  'board.left': ({ time }) => `${time} left`,
  'ribbon.wild': 'wild', 'ribbon.action': 'action',

  // The player's table (table.js).
  'table.yourDecision': 'Your decision.', 'table.reconnecting': 'Connection lost: reconnecting…', 'table.wrong': 'Something went wrong.',
  'table.title': ({ n }) => `${n}-player game`, 'table.sub': ({ edition, end }) => ` · ${edition} · ${end.replaceAll('_', ' ')}`, 'table.nav': 'Game', 'table.resign': 'Resign',
  'table.resignWarn': 'A bot will play your seat to the end. ', 'table.resignYes': 'Yes, resign', 'table.keepPlaying': 'Keep playing',
  'table.audit': 'Audit this game', 'table.lobby': 'Lobby', 'table.resigned': 'You resigned: a bot plays your seat.',
  'table.yourSeat': 'your seat', 'table.theirSeat': ({ who }) => `${who}'s seat`, 'table.theDiscard': 'the discard pile',
  'table.noMove': ({ name, where }) => `No move plays ${name} on ${where}.`,
  'table.movesThere': ({ n, name, where }) => `${n} move${n === 1 ? '' : 's'} with ${name} on ${where}: choose ${n === 1 ? 'it' : 'one'} there.`,
  'table.notPlayed': ({ name }) => `${name} was not played: drop it on a seat or on the discard pile, or pick it and choose a move.`,
  'table.yourMoves': 'Your moves', 'table.waitingOthers': ({ n }) => `Waiting for the other player${n === 1 ? '' : 's'}`,
  'table.movesSelected': ({ n }) => `${n} move${n === 1 ? '' : 's'} with the selected cards. `, 'table.clear': 'Clear selection',
  'table.pickHint': 'Pick cards in your hand (or on a draft pile) to narrow the moves, or choose one below.',
  'table.wins': ({ who, n }) => `${who} win${n === 1 ? 's' : ''}!`, 'table.verifying': 'Verifying the game…',
  'table.verified': (v) => `Verified: the hash chain holds over ${v.events} events, ${v.rounds_verified === 1 ? '1 shuffle matches its seed' : `${v.rounds_verified} shuffles match their seeds`}, ${v.draws_verified} draws checked, every move follows the rules.`,
  'table.failed': (v) => `Verification failed${v.first_bad_version ? ` at version ${v.first_bad_version}` : ''}: ${v.reason}`,
  'table.stepThrough': 'Step through the whole game in the audit viewer', 'table.backToLobby': 'Back to the lobby',

  // Watching a game (watch.js).
  'watch.title': 'Watching', 'watch.sub': ({ n, edition, end }) => ` · ${n} players · ${edition} · ${end.replaceAll('_', ' ')}`, 'watch.yourSeat': 'Your seat',
  'watch.delayed': ({ n }) => `You see this game ${n} event${n === 1 ? '' : 's'} behind the table (its spectator delay), and no one's hand.`,
  'watch.live': 'You see what every watcher sees: the table, never a hand.', 'watch.notStarted': 'The game has not started yet.',

  // The audit viewer (audit.js); the checks' names are also their data-check keys.
  'audit.title': 'Audit', 'audit.sub': ({ n, edition, last }) => ` · ${n} players · ${edition} · ${last} versions`,
  'audit.verification': 'Verification', 'audit.checking': 'Checking…', 'audit.inBrowser': 'Checked in your browser',
  'audit.notOpen': 'The history is not open to you yet.', 'audit.stepper': 'Step through the versions',
  'audit.first': 'First', 'audit.firstVersion': 'First version', 'audit.previous': 'Previous', 'audit.previousVersion': 'Previous version',
  'audit.version': 'Version', 'audit.next': 'Next', 'audit.nextVersion': 'Next version', 'audit.last': 'Last', 'audit.lastVersion': 'Last version',
  'audit.keys': 'Arrow keys step through the versions; Home and End jump to the first and last.',
  'audit.of': ({ at, last }) => `${at} of ${last}`, 'audit.versionN': ({ at }) => `Version ${at}: `,
  'audit.unreadable': '(not readable)', 'audit.notDealt': 'Not dealt yet.',
  'audit.verified': (v) => `✓ Verified by the server: the hash chain holds over ${v.events} events; ${v.rounds_verified === 1 ? '1 shuffle matches its revealed seed' : `${v.rounds_verified} shuffles match their revealed seeds`}; ${v.draws_verified} draws came from the top of the pile; every event follows by the rules.`,
  'audit.damaged': (v) => `✗ This game's log is damaged${v.first_bad_version ? ` at version ${v.first_bad_version}` : ''}: ${v.reason}`,
  'audit.goTo': ({ n }) => `Go to version ${n}`, 'audit.failed': 'Verification failed.',
  'audit.seeds': 'Seeds of the deal', 'audit.master': ({ hash }) => `Master seed committed to at creation: SHA-256 ${hash} `,
  'audit.dealtWith': '✓ dealt with that seed', 'audit.notDealtYet': '(not dealt yet)',
  'audit.before4': 'Created before rules version 4: the master seed was drawn at the deal.',
  'audit.source.player': 'sent by its player', 'audit.source.bot': 'a bot: derived from the master seed', 'audit.source.none': 'sent none: the empty value',
  'audit.noClientSeeds': 'No client seeds in this deal (a tournament table, an older game, or not dealt yet).',
  'audit.check.Hash chain': 'Hash chain', 'audit.check.Seeds': 'Seeds', 'audit.check.Receipts': 'Receipts', 'audit.check.WebCrypto': 'WebCrypto',
  'audit.cannot': ({ message }) => `cannot check here: ${message}`,
  'audit.notVerifiedHere': ({ reason }) => `✗ Not verified in your browser: ${reason}`,
  'audit.verifiedHere': '✓ Verified in your browser (WebCrypto: SHA-256, HMAC, Ed25519), apart from the server\'s word.',
  'audit.offline': 'Check it offline with cya-verify (docs/audit.md): ', 'audit.hereFailed': 'The check in your browser failed.',

  // The checks in the browser (browser_checks.js).
  'check.missing': ({ n }) => `version ${n} is missing`,
  'check.breaks': ({ n }) => `the hash chain breaks at version ${n}: the event or its hash was changed`,
  'check.holds': ({ n }) => `it holds over ${n} events`,
  'check.clientSeed': ({ seat }) => `seat ${seat}'s client seed in game_started is not the one it sent before the deal`,
  'check.noCreated': 'the history does not open with game_created', 'check.notDealt': 'not dealt',
  'check.masterSeed': 'the master seed dealt with is not the one game_created committed to',
  'check.roundCommitment': ({ n }) => `round ${n}'s revealed seed does not match its commitment`,
  'check.roundDerive': ({ n }) => `round ${n}'s seed is not the one the master seed and the client seeds derive`,
  'check.seeds': ({ committed, clientSeeds, n }) => `${committed ? 'the master seed matches its commitment' : 'no commitment (rules before version 4)'}${clientSeeds ? ', every seat\'s client seed as sent' : ''}; ${n === 1 ? '1 round seed derives' : `${n} round seeds derive`} from them`,
  'check.noReceipts': 'no receipts of this game kept in this browser',
  'check.receipt': ({ n, why }) => `the receipt for version ${n}: ${why}`,
  'check.unknownKey': ({ key }) => `signed by key ${key}, which the server does not list`,
  'check.signature': 'its signature does not verify: forged or altered', 'check.otherGame': ({ game }) => `it is a receipt of game ${game}`,
  'check.salt': 'the history\'s salt is not the one it commits to',
  'check.beyond': ({ n, end }) => `the server signed version ${n}; the history ends at ${end}`,
  'check.notSigned': ({ n }) => `the history at version ${n} is not the log the server signed`,
  'check.receipts': ({ n }) => `${n === 1 ? '1 receipt kept here agrees' : `${n} receipts kept here agree`} with this history, signed by the server's key`,
  'api.status': ({ status }) => `The server answered ${status}.`,
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
