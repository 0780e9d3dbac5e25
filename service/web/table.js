// The player's table (#/game/ID): the board, the moves the player may make as buttons on
// cards and seats, the log, resign, and the scores and verification at the end.
import { api, prefetched } from './api.js';
import { announce, h, replace, unannounce } from './dom.js';
import { board, seatFolding, seatNames } from './board.js';
import { loadCards, typeName } from './cards.js';
import { cardsOf, describe, distinct, keysAtMoves, matching, targetOf } from './moves.js';
import { againButtons, followAfterEnd } from './again.js';
import { forEdition, list, t } from './i18n.js';
import { reactionBar, showReactions } from './reactions.js';
import { startDrag, takeDrop } from './drag.js';
import { liveGame } from './live.js';
import { logPanel } from './logpanel.js';
import { playback } from './motion.js';
import { waitingRoom } from './waiting.js';
import { current, session } from './store.js';

// The waiting room also looks for itself this often: a seat being taken is what its creator
// waits for, and a stream can be slow to tell (a busy server, a proxy that buffers).
const WAITING_POLL_MS = 4000;
// The events after which the summary (who sits where, names, status) is out of date.
const SEATING = /^(seat_|game_started|game_ended|decision_timed_out|clock_restarted)/;

export async function mount(root, { id }) {
  // Everything this page knows of the game. Only what this player's key may read is ever
  // put here: the view (own hand only), own legal commands, the summary, the redacted log.
  const st = { id, summary: null, view: null, seat: undefined, version: 0, deadline: null, legal: [], selected: new Set(), error: null, busy: false, until: null, verify: null, resigning: false };
  current.screen = 'table';
  current.state = st;
  let summaryStale = true, resigned = false;
  let drawn = null; // the summary the waiting room shows

  // One round trip: GET /turn (view and legal commands at one version) and, when it may have
  // changed, the summary (names, seats), asked at once. Without a seat (never had one, or
  // resigned) the spectator's view comes with the summary instead.
  async function load() {
    // Before the deal seats come and go: who sits where first, and the turn only with a seat
    // (a seat just left would make the question a 403).
    if (st.summary?.status === 'lobby') {
      const detail = await api.game(id);
      if (detail.summary.status === 'lobby') return seating(detail.summary);
      st.summary = detail.summary;
      if (mySeat(st.summary) < 0) st.seat = null; // dealt without us: a watcher
    }
    const askTurn = st.seat !== null && !resigned;
    const fresh = summaryStale || !askTurn;
    summaryStale = false;
    const early = st.summary ? null : prefetched(id); // the first load: asked by the router
    const [detail, turn] = await Promise.all([
      fresh ? early?.game ?? api.game(id) : null,
      !askTurn ? null : (early?.turn ?? api.turn(id)).catch((err) => (err.code === 'not_seated' ? null : Promise.reject(err))),
    ]);
    // Not dealt yet: the seats as the summary has them, at its version. The turn was read
    // apart from it, maybe after a seat was taken: a stream event of that seat must still
    // count as news.
    if (detail?.summary.status === 'lobby') return seating(detail.summary);
    if (detail) st.summary = detail.summary;
    if (turn) return { version: turn.version, turn };
    const d = detail || await api.game(id);
    st.summary = d.summary;
    return { version: d.summary.version, turn: { view: d.view, seat: null, deadline: d.summary.deadline, legal_commands: [] } };
  }

  function mySeat(summary) {
    const me = session.playerId();
    return summary.seats.findIndex((s) => s?.kind === 'human' && s.player_id === me);
  }

  function seating(summary) {
    st.summary = summary;
    const seat = mySeat(summary);
    return { version: summary.version, turn: { view: null, seat: seat < 0 ? null : seat, deadline: null, legal_commands: [] } };
  }

  const [first] = await Promise.all([load(), loadCards()]);
  const main = h('div', { class: 'play' });
  const told = () => ({ seat: (n) => seatNames(st.summary)[n], player: (p) => st.summary.names[p] || t('start.someone'), edition: st.summary.ruleset.edition, mySeat: st.seat });
  // The game's language first: the log and the playback take their titles when made.
  await forEdition(st.summary.ruleset.edition);
  const log = logPanel(told);
  const motion = playback(told);
  const { isOpen: seatOpen, toggle: toggleSeat } = seatFolding(() => st.view && render());
  replace(root, h('div', { class: 'table-screen' }, main, log.el));
  // Hooks of the start/talk/keys side (start.js, reactions.js, again.js, moves.js).
  const talk = reactionBar(id);
  log.el.prepend(talk.el);
  const unkeys = keysAtMoves(main);
  let afterEnd = null;
  const heard = (items) => {
    showReactions(items, () => seatNames(st.summary));
    const offer = items.find((i) => i.event.type === 'rematch_offered' && i.event.player_id !== session.playerId());
    if (offer) { st.offer = { game_id: offer.event.game_id, who: st.summary.names[offer.event.player_id] || '' }; render(); }
  };

  let trouble = null; // what the page said of a lost connection or a failed read
  const live = liveGame(id, {
    load,
    first,
    onChange(snap) {
      const turn = snap.turn, wasMine = st.legal.length > 0;
      // The waiting room's own look found nothing new: no redraw (it would reset the
      // focus and the "Copied" of a button).
      if (!turn.view && !st.view && st.version === snap.version && drawn === JSON.stringify(st.summary)) return;
      if (st.busy && st.until !== null && snap.version >= st.until) st.busy = false;
      Object.assign(st, { version: snap.version, view: turn.view, seat: resigned ? null : turn.seat, deadline: turn.deadline, legal: turn.legal_commands });
      st.selected = new Set([...st.selected].filter((c) => st.legal.some((cmd) => cardsOf(cmd).includes(c))));
      if (!wasMine && st.legal.length) announce(t('table.yourDecision'), 'turn');
      if (wasMine && !st.legal.length) announce('');
      if (st.view?.status === 'finished' && !st.verify) checkGame();
      talk.seated(Boolean(st.view) && st.seat !== null && st.seat !== undefined);
      if (st.view?.status === 'finished' && !afterEnd) afterEnd = followAfterEnd(id, snap.version, (items) => { log.add(items); heard(items); });
      render();
    },
    onEvents(items) {
      // Who sits where changed: read the summary again, even if the table already shows a
      // version as new (the first load reads the turn and the summary apart, so the seats
      // can be older than the version).
      if (items.some((i) => i.version > st.summary.version && SEATING.test(i.event.type))) {
        summaryStale = true;
        live.reload();
      }
      heard(items);
      // A newcomer's name is in the game's summary, not in the event: fetch it first. Only
      // the names are taken: the seats come with the next snapshot, in version order.
      const unknown = items.some((i) => i.event.type === 'seat_taken' && i.event.controller.player_id && !(i.event.controller.player_id in st.summary.names));
      const tell = () => { log.add(items); motion.add(items); };
      if (!unknown) tell();
      else {
        api.game(id).then((d) => { Object.assign(st.summary.names, d.summary.names); }, () => {})
          .finally(tell);
      }
    },
    onStatus(status, err) {
      main.dataset.stream = status;
      // Back: the warning goes, but not what was said since (a refused drop, your turn).
      if (status === 'reconnecting') announce(trouble = t('table.reconnecting'), 'warn');
      if (status === 'live' && trouble) { unannounce(trouble); trouble = null; }
      if (status === 'error' || status === 'closed') announce(trouble = err?.message || t('table.wrong'), 'error');
    },
  });

  async function checkGame() {
    st.verify = 'checking';
    try { st.verify = await api.verify(id); } catch (err) { st.verify = { ok: false, reason: err.message }; }
    render();
  }

  async function send(command) {
    const answer = api.command(id, command);
    motion.skip();
    // Only the move buttons change while it is on its way: no redraw of the whole table.
    st.busy = true; st.error = null; st.until = null;
    main.querySelectorAll('button.move').forEach((b) => { b.disabled = true; });
    try {
      const res = await answer;
      st.selected.clear();
      // The moves stay off until the table shows the answer's version (or a later one): the
      // ones on screen belong to the game as it was.
      st.until = res.version;
      if (st.version >= res.version) { st.busy = false; render(); }
      await live.answered(res.version, res.events, res.turn && { version: res.turn.version, turn: res.turn });
    } catch (err) {
      st.busy = false;
      st.error = err.message;
      announce(err.message, 'error');
      render();
      live.reload();
    }
  }

  function toggle(card) {
    if (st.selected.has(card)) st.selected.delete(card); else st.selected.add(card);
    render();
  }

  function render() {
    const focused = document.activeElement?.dataset?.focus;
    drawn = st.view ? null : JSON.stringify(st.summary);
    if (!st.view) {
      replace(main, header(), waitingRoom(st.summary, { onChanged: () => live.reload() }));
    } else {
      replace(main, header(), gameOver(), board(st.view, {
        names: seatNames(st.summary), edition: st.summary.ruleset.edition, version: st.version,
        deadline: st.deadline, mySeat: st.seat, hooks: hooks(), controls: moves(),
        recent: motion.el, open: seatOpen, toggle: toggleSeat,
      }));
    }
    motion.shown(st.version, main);
    if (focused) main.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus();
  }

  function header() {
    const rs = st.summary.ruleset;
    const playing = st.view?.status === 'playing' && st.seat !== null && st.seat !== undefined;
    return h('header', { class: 'game-head' },
      h('h1', {}, t('table.title', { n: rs.players }), h('span', { class: 'sub' }, t('table.sub', { edition: rs.edition, end: rs.end_mode }))),
      h('nav', { class: 'buttons', 'aria-label': t('table.nav') },
        playing && !st.resigning ? h('button', { onclick: () => { st.resigning = true; render(); }, 'data-focus': 'resign' }, t('table.resign')) : null,
        playing && st.resigning ? [h('span', {}, t('table.resignWarn')),
          h('button', { class: 'danger', onclick: resign, 'data-focus': 'resign-yes' }, t('table.resignYes')),
          h('button', { onclick: () => { st.resigning = false; render(); } }, t('table.keepPlaying'))] : null,
        st.view?.status === 'finished' ? h('a', { href: `#/audit/${id}` }, t('table.audit')) : null,
        h('a', { href: '#/lobby' }, t('table.lobby'))));
  }

  async function resign() {
    // The stream opened as this seat would go on telling the seat's draws to the bot that
    // takes it over: close it first, and open one as a watcher after.
    live.closeStream();
    resigned = true; // no more questions as a seat from here
    try {
      await api.resign(id);
      st.seat = null; // a watcher from now on
      announce(t('table.resigned'));
    } catch (err) { resigned = false; announce(err.message, 'error'); }
    live.restream();
    st.resigning = false;
    summaryStale = true;
    live.reload();
  }

  // Cards in the hand and face-up pile tops toggle a selection; seats show the moves that
  // aim at them with the selected cards; a card dropped on a seat or the discard sends the
  // one move that fits, or shows the ones that do, or says that none does.
  function hooks() {
    const mine = st.legal.length > 0 && !st.busy;
    const pick = (id, card) => card(id, {
      tag: 'button', type: 'button', 'aria-pressed': String(st.selected.has(id)), 'data-focus': `card:${id}`,
      draggable: mine ? 'true' : null,
      onclick: () => toggle(id), ondragstart: (ev) => startDrag(ev, id, { missed: dropMissed }),
    });
    const drop = (test, where) => ({
      ondragover: (ev) => ev.preventDefault(),
      ondrop: (ev) => {
        const card = takeDrop(ev);
        if (card) dropped(card, test, where);
      },
    });
    const seatName = (seat) => (seat === st.seat ? t('table.yourSeat') : t('table.theirSeat', { who: seatNames(st.summary)[seat] }));
    return {
      handCard: pick,
      pileCard: (id, card) => st.legal.some((c) => c.type === 'draft_set') ? pick(id, card) : card(id),
      discardTarget: mine ? drop((c) => c.type === 'discard', t('table.theDiscard')) : {},
      seatTarget: (seat) => mine ? drop((c) => targetOf(c) === seat, seatName(seat)) : {},
      seatActions: (seat) => {
        if (!mine || !st.selected.size) return null;
        const aimed = distinct(matching(st.legal, st.selected).filter((c) => targetOf(c) === seat));
        return aimed.length ? h('div', { class: 'seat-actions' }, aimed.map((c) => moveButton(c))) : null;
      },
    };
  }

  function dropped(card, test, where) {
    const name = typeName(st.summary.ruleset.edition, card);
    const aimed = st.legal.filter((c) => test(c) && cardsOf(c).includes(card));
    const fits = distinct(aimed.filter((c) => cardsOf(c).every((x) => x === card || st.selected.has(x))));
    if (fits.length === 1) return send(fits[0]);
    if (!aimed.length) return announce(t('table.noMove', { name, where }), 'warn');
    // Several moves (or one that takes more cards): the card is picked, and the target
    // shows the moves there. Cards picked before stay if a move there uses them too.
    let picked = new Set([...st.selected, card]);
    if (!matching(aimed, picked).length) picked = new Set([card]);
    st.selected = picked;
    const n = distinct(matching(aimed, picked)).length;
    render();
    announce(t('table.movesThere', { n, name, where }));
  }

  // A drag that ended on nothing that takes a card (or was called off).
  function dropMissed(card) {
    if (!st.legal.length || st.busy) return;
    announce(t('table.notPlayed', { name: typeName(st.summary.ruleset.edition, card) }), 'warn');
  }

  function moveButton(c) {
    const text = describe(c, { names: seatNames(st.summary), edition: st.summary.ruleset.edition, view: st.view });
    return h('button', { class: `move m-${c.type}`, disabled: st.busy, 'data-focus': `move:${JSON.stringify(c)}`, onclick: () => send(c) }, text);
  }

  function moves() {
    if (st.view.status === 'finished' || st.seat === null) return null;
    const shown = distinct(matching(st.legal, st.selected));
    return h('section', { class: 'moves', 'aria-labelledby': 'moves-title' },
      h('h2', { id: 'moves-title' }, st.view.awaiting.includes(st.seat) ? t('table.yourMoves') : t('table.waitingOthers', { n: st.view.seats.length - 1 })),
      st.error ? h('p', { class: 'problem', role: 'alert' }, st.error) : null,
      st.legal.length ? h('p', { class: `hint${st.selected.size ? '' : ' intro'}` }, st.selected.size
        ? [t('table.movesSelected', { n: shown.length }), h('button', { class: 'link', onclick: () => { st.selected.clear(); render(); } }, t('table.clear'))]
        : t('table.pickHint')) : null,
      st.legal.length ? h('ul', { class: 'move-list' }, shown.map((c) => h('li', {}, moveButton(c)))) : null);
  }

  function gameOver() {
    if (st.view.status !== 'finished') return null;
    const names = seatNames(st.summary);
    const v = st.verify;
    return h('section', { class: 'game-over', 'aria-labelledby': 'over-title' },
      h('h2', { id: 'over-title' }, t('table.wins', { who: list(st.view.winners.map((w) => names[w])), n: st.view.winners.length })),
      h('p', { class: 'verify', role: 'status' }, !v || v === 'checking' ? t('table.verifying')
        : v.ok ? t('table.verified', v)
          : t('table.failed', v)),
      session.key() ? againButtons(id, st.summary, st.offer) : null,
      h('p', {}, h('a', { href: `#/audit/${id}` }, t('table.stepThrough')), ' · ', h('a', { href: '#/lobby' }, t('table.backToLobby'))));
  }

  const waiting = setInterval(() => { if (!st.view && st.summary.status === 'lobby') live.reload(); }, WAITING_POLL_MS);
  return () => { clearInterval(waiting); live.stop(); log.stop?.(); motion.stop(); unkeys(); talk.stop(); afterEnd?.(); };
}
