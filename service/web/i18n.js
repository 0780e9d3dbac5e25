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

const DE = {
  'skip': 'Zum Inhalt springen',
  'nav.site': 'Seite', 'nav.api': 'API', 'nav.key': 'Dein Schlüssel', 'nav.getKey': 'Schlüssel holen oder nutzen', 'nav.language': 'Sprache',
  'nav.games': 'Meine Spiele',
  'loading': 'Lädt…', 'error.title': 'Etwas ist schiefgegangen', 'error.back': 'Zurück zum Start',
  'start.title': 'Cover Your Assets spielen',
  'start.pitch': 'Staple deine Besitztümer, schnapp dir die obersten Stapel der anderen und sei am Ende am reichsten. Im Browser, ohne Konto.',
  'start.welcome': ({ name }) => `Willkommen zurück, ${name}`,
  'start.name': 'Dein Anzeigename', 'start.nameHint': 'Die anderen am Tisch sehen ihn. Leer lassen, um als Gast zu spielen.',
  'start.players': 'Spieler am Tisch', 'start.playersN': ({ n }) => `${n} Spieler`,
  'start.bots': 'Gegen Bots spielen', 'start.botsHint': ({ n }) => `Du und ${n - 1} ${plural(n - 1, 'Bot', 'Bots')}, ${n === 2 ? 'drei Runden, die höchste Summe gewinnt' : 'eine Runde, der höchste Wert gewinnt'}: ein Spiel von wenigen Minuten. Geht sofort los.`,
  'start.quick': 'Schnelles Spiel', 'start.quickHint': 'Spiele gegen Leute, die gerade ein Spiel suchen, in deiner Wertungsklasse.',
  'start.invite': 'Freunde einladen', 'start.inviteHint': 'Ein privater Tisch und ein Link zum Verschicken; das Spiel beginnt, wenn alle sitzen.',
  'start.custom': 'Eigenes Spiel', 'start.customHint': 'Wähle jede Regel, die Plätze und eine Bedenkzeit.',
  'start.watch': 'Den öffentlichen Spielen zusehen', 'start.lobby': 'Deine und öffentliche Spiele',
  'start.newKey': 'Schlüssel holen', 'start.keyTitle': 'Du schreibst einen Bot oder spielst anderswo?',
  'start.keyText': 'Dein Schlüssel ist, woran der Dienst dich erkennt: dieser Browser bewahrt ihn auf. Hol dir einen zum Kopieren, oder nutze einen vorhandenen.',
  'start.haveKey': 'Vorhandenen API-Schlüssel nutzen', 'start.useKey': 'Diesen Schlüssel nutzen',
  'start.forget': 'Schlüssel in diesem Browser vergessen', 'start.showKey': 'Meinen Schlüssel zeigen',
  'start.hello': ({ name }) => `Hallo, ${name}`,
  'start.keyOnce': 'Das ist dein API-Schlüssel. Dieser Browser bewahrt ihn auf; kopiere ihn an einen sicheren Ort, um anderswo zu spielen oder einen Bot zu schreiben.',
  'start.yourKey': 'Dein API-Schlüssel', 'start.copyKey': 'Schlüssel kopieren', 'start.continue': 'Weiter',
  'start.invited': 'Du bist zu einem Spiel eingeladen', 'start.invitedText': 'Wähle einen Namen (oder füge deinen Schlüssel ein), um Platz zu nehmen.',
  'start.invitedBy': ({ who, n, edition, end }) => `${who} lädt dich zu einem Spiel mit ${n} Spielern ein (${edition}, ${end}). `,
  'start.someone': 'Jemand', 'start.takeSeat': 'Platz nehmen', 'start.guest': 'Gast',
  'start.starting': 'Die Karten werden verteilt…',
  'copy': 'Kopieren', 'copied': 'Kopiert', 'copied.status': 'In die Zwischenablage kopiert.',
  'seek.title': 'Suche Mitspieler…', 'seek.text': ({ n, edition }) => `Ein Spiel mit ${n} Spielern, ${edition}. Sobald genug Mitspieler gefunden sind, geht diese Seite von selbst an den Tisch.`,
  'seek.waited': ({ s }) => `Wartet seit ${s} s.`, 'seek.cancel': 'Suche beenden', 'seek.cancelled': 'Du suchst nicht mehr.',
  'seek.bots': 'Niemand da? Dann gegen Bots spielen',
  'edition.en_2022': 'Englische Ausgabe (2022)', 'edition.de_2024': 'Deutsche Ausgabe (2024)', 'edition.classic_2011': 'Klassische Ausgabe (2011)',
  'end.to_million': 'bis zur Million', 'end.quick': 'eine Runde', 'end.highest_after_3_rounds': 'drei Runden, höchste Summe',
  'end.first_to_2_round_wins': 'wer zuerst zwei Runden gewinnt',
  'lobby.mine': 'Meine Spiele', 'lobby.none': 'Du hast noch keine Spiele.', 'lobby.public': 'Öffentliche Spiele',
  'lobby.noMatch': 'Kein öffentliches Spiel passt.', 'lobby.filter': 'Öffentliche Spiele filtern', 'lobby.any': 'alle',
  'lobby.status': 'Stand', 'lobby.edition': 'Ausgabe', 'lobby.end': 'Ende', 'lobby.players': 'Spieler',
  'lobby.playTitle': 'Spielen', 'lobby.playText': 'Sieh jedem öffentlichen Spiel unten beim Spielen zu. Zum Mitspielen genügt ein Name.',
  'lobby.playNow': 'Jetzt spielen', 'lobby.new': 'Neues Spiel', 'lobby.custom': 'Eigenes Spiel',
  'status.lobby': 'wartet', 'status.playing': 'läuft', 'status.finished': 'beendet', 'status.expired': 'verfallen', 'status.abandoned': 'abgebrochen',
  'lobby.open': ({ n }) => `${n} ${plural(n, 'freier Platz', 'freie Plätze')}`, 'lobby.private': 'privat',
  'lobby.gameTitle': ({ n, edition, end }) => `Spiel mit ${n} Spielern · ${edition} · ${end}`,
  'lobby.results': 'Ergebnis', 'lobby.openGame': 'Öffnen', 'lobby.join': 'Mitspielen', 'lobby.watchGame': 'Zusehen', 'lobby.audit': 'Prüfen',
  'lobby.behind': ({ n }) => `${n} Ereignisse zurück`,
  'custom.title': 'Eigenes Spiel', 'custom.rules': 'Regeln', 'custom.extras': 'Zusatzregeln (nicht in der Ausgabe 2011)',
  'custom.seats': 'Plätze', 'custom.you': 'Platz 1: du', 'custom.seat': ({ n }) => `Platz ${n}`,
  'custom.openSeat': 'frei für eine Person', 'custom.bot': ({ level }) => `Bot (${level})`,
  'custom.table': 'Tisch', 'custom.clock': 'Sekunden je Entscheidung (leer: keine Uhr)',
  'custom.clockHint': 'Läuft die Zeit ab, entscheidet einmal ein Bot für diese Person.',
  'custom.timeoutBot': 'Bot, der für jemanden spielt, dessen Zeit abläuft oder der aufgibt',
  'custom.handOver': 'Den Platz nach so vielen Zeitüberschreitungen in Folge dem Bot geben (leer: nie)',
  'custom.public': 'Öffentlich: in der Lobby gelistet, alle dürfen zusehen', 'custom.rated': 'Gewertet: zählt für die Wertung der Spieler',
  'custom.delay': 'Verzögerung für Zuschauer (Ereignisse; 0: live)',
  'custom.delayHint': 'Zuschauer sehen das Spiel so viele Ereignisse später, damit niemand einem Spieler die Karten verraten kann. Die Spieler sehen es live.',
  'custom.create': 'Spiel anlegen', 'custom.default': 'wie in der Ausgabe', 'custom.on': 'an', 'custom.off': 'aus',
  'custom.random': 'zufällig', 'custom.firstSeat': ({ n }) => `Platz ${n}`,
  'waiting.more': ({ n }) => `Warte auf ${n} ${plural(n, 'weitere Person', 'weitere Personen')}`, 'waiting.all': 'Alle sitzen',
  'waiting.you': ' (du)', 'waiting.public': 'Ein öffentliches Spiel: alle können aus der Lobby beitreten.',
  'waiting.private': 'Ein privates Spiel: nur wer den Einladungslink hat, kann beitreten.',
  'waiting.link': 'Einladungslink', 'waiting.copyLink': 'Link kopieren', 'waiting.take': 'Platz nehmen',
  'waiting.start': 'Spiel starten', 'waiting.startHint': 'Du kannst starten, sobald jeder Platz besetzt ist.',
  'waiting.leave': 'Spiel verlassen', 'waiting.share': 'Schick diesen Link an Freunde: er öffnet ihren Platz an diesem Tisch.',
  'end.rematch': 'Revanche', 'end.rematchHint': 'Gleiche Regeln und Leute, jeder Platz eins weiter.',
  'end.again': 'Nochmal spielen', 'end.offered': ({ who }) => `${who} bietet eine Revanche an.`, 'end.joinRematch': 'Zur Revanche',
  'react.title': 'Reaktionen', 'react.good_game': 'Gutes Spiel', 'react.well_played': 'Gut gespielt',
  'react.nice_steal': 'Schön geklaut!', 'react.oops': 'Hoppla',
  'react.said': ({ who, what }) => `${who}: „${what}“`, 'react.wait': 'Eine Reaktion alle paar Sekunden.',
  'keys.hint': 'Tasten 1–9 wählen einen Zug.',
  'move.pairDiscard': ({ card, top }) => `${card} mit der obersten Ablagekarte (${top}) paaren`,
  'move.form': ({ cards }) => `Satz bilden: ${cards}`, 'move.discard': ({ card }) => `${card} ablegen`,
  'move.challenge': ({ who, second, set, cards }) => `${who}s ${second ? 'zweiten ' : ''}Satz ${set} mit ${cards} herausfordern`,
  'move.set': '',
  'move.draft': ({ card, cards, piles }) => `${card} mit ${cards} von Stapel ${piles} ziehen`,
  'move.improve': ({ card }) => `${card} auf deinen obersten Satz legen`,
  'move.swap': ({ who }) => `Deinen obersten Satz mit dem von ${who} tauschen`,
  'move.moveMine': ({ dir }) => `Deinen Stapel umschichten: ${dir}`, 'move.moveTheirs': ({ who, dir }) => `Stapel von ${who} umschichten: ${dir}`,
  'move.endTurn': 'Zug beenden', 'move.respond': ({ cards }) => `Mit ${cards} antworten`,
  'move.concede': 'Herausforderung aufgeben', 'move.challengeDraft': ({ cards }) => `Den Zug mit ${cards} herausfordern`,
  'move.passDraft': 'Den Zug stehen lassen', 'move.choose': ({ dir }) => `Wählen: ${dir}`,
  'dir.top_to_bottom': 'obersten Satz nach unten', 'dir.bottom_to_top': 'untersten Satz nach oben',

  'opt.players': 'Spieler', 'opt.edition': 'Ausgabe', 'opt.end_mode': 'Wann das Spiel endet',
  'opt.tie_policy': 'Bei Gleichstand an der Spitze', 'tie.extra_round': 'noch eine Runde', 'tie.shared_win': 'Sieg teilen',
  'opt.first_player': 'Wer beginnt', 'opt.later_rounds_start': 'Wer die späteren Runden beginnt',
  'later.rotate_left': 'der Nächste links', 'later.poorest': 'wer am ärmsten ist',
  'opt.draft_challenge_requires_own_set': 'Wer einen gezogenen Satz herausfordert, braucht einen eigenen Satz',
  'opt.draft_set_first_set_protected': 'Ein gezogener erster Satz ist sicher',
  'opt.public_set_composition': 'Jede Karte jedes Satzes zeigen', 'hint.public_set_composition': 'Aus: nur Art, Größe und oberste Karte jedes Satzes.',
  'opt.hand_size_six': 'Sechs Karten auf der Hand', 'opt.two_actions': 'Zwei Aktionen pro Zug',
  'opt.no_rechallenge_after_loss': 'Keine Gegen-Herausforderung direkt nach einer Niederlage',
  'opt.improve_set': 'Passende Karte auf den obersten Satz legen', 'opt.action_cards': 'Tausch- und Umschichtkarten im Stapel',
  'opt.penny_jar': 'Spardosen-Joker (1.000 $, doppelt in Herausforderungen)', 'opt.second_set_challenge': 'Der zweite Satz von oben kann mit einem Paar herausgefordert werden',
  'and': 'und',
};

export const DICTIONARIES = { en: EN, de: DE };

// The language a game asks for when the reader chose none (a German edition: German).
let gameLanguage = null;

export function chosen() { return localStorage.getItem(KEY); }

export function lang() {
  const pick = chosen() || gameLanguage;
  if (pick in DICTIONARIES) return pick;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (base in DICTIONARIES) return base;
  }
  return 'en';
}

export function choose(language) {
  localStorage.setItem(KEY, language);
  document.documentElement.lang = lang();
}

// A screen showing a game of `edition` says so: German for de_2024 unless the reader chose.
export function forEdition(edition) {
  gameLanguage = edition === 'de_2024' ? 'de' : null;
  document.documentElement.lang = lang();
}

export function t(key, params = {}) {
  const entry = DICTIONARIES[lang()][key] ?? EN[key];
  if (entry === undefined) return key;
  if (typeof entry === 'function') return entry(params);
  return entry.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

// "A, B and C" in the reader's language.
export function list(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${t('and')} ${items.at(-1)}`;
}
