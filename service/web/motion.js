// What just happened, played as it happened. The table is always drawn at once in its new
// state (a screen reader, a test, a quick player need no wait); this module then replays the
// batch's events over it, one after another at a readable pace: a copy of each card flies
// from where it was to where it went (Web Animations, in a layer above the page that takes
// no clicks), and the box by the piles tells each event as it plays. Bots answer at once,
// so their 5–15 events land together; here they keep a person's pace (docs/web-table.md
// says why in the page). "Skip" or the player's own move ends the replay;
// prefers-reduced-motion turns it off.
import { h } from './dom.js';
import { cardBack, cardFace } from './cards.js';
import { sentence } from './log.js';
import { t } from './i18n.js';

const FLIGHT_MS = 520, STAGGER_MS = 90, PAUSE_MS = 260, RECENT = 5, MOST_QUEUED = 30;
// Decisions a seat makes: its "last move", highlighted at its seat until it moves again.
const MOVES = new Set(['set_formed', 'card_discarded', 'challenge_opened', 'challenge_answered', 'challenge_conceded',
  'set_drafted', 'draft_challenge_passed', 'set_improved', 'swap_played', 'move_played', 'move_direction_chosen']);
// Told in the full log only: too many to read by the table, or nothing to see.
const QUIET = new Set(['turn_started', 'turn_ended', 'cards_drawn', 'client_seed_set', 'game_created', 'seat_taken',
  'seat_left', 'clock_restarted', 'game_started']);
const actor = (e) => (e.type === 'challenge_opened' ? e.challenger : e.seat);

// `context()` gives what log.js needs (seat, player, edition) and `mySeat`.
export function playback(context) {
  const reduced = matchMedia('(prefers-reduced-motion: reduce)');
  const queue = [];
  const last = new Map(); // seat -> the sentence of its last move
  const lines = h('ol', { class: 'recent-lines' });
  const count = h('span', { class: 'left' });
  // Pressed, it is gone: the keyboard goes on at the moves.
  const skip = h('button', {
    type: 'button', class: 'skip-motion', hidden: true,
    onclick: () => { skipAll(); root.querySelector('.move-list button:not([disabled])')?.focus(); },
  }, t('recent.skip'), count);
  const el = h('section', { class: 'recent', 'aria-label': t('recent.title') }, lines, skip);
  const layer = h('div', { class: 'motion-layer', 'aria-hidden': 'true' });
  document.body.append(layer);
  let root = document, since = null, upTo = 0, running = false, skipping = false, wake = null, duel = null, ghost = null;

  function note(text, now = false) {
    lines.querySelector('.now')?.classList.remove('now');
    lines.append(h('li', { class: now ? 'now' : null }, text));
    while (lines.children.length > RECENT) lines.firstElementChild.remove();
  }

  // The seats' last moves, written into the table as drawn (it is redrawn whole).
  function paint() {
    for (const p of root.querySelectorAll('.last-move[data-seat]')) {
      const text = last.get(Number(p.dataset.seat)) || '';
      if (p.textContent !== text) p.textContent = text;
    }
  }

  const wait = (ms) => new Promise((done) => {
    const t = setTimeout(done, skipping ? 0 : ms);
    wake = () => { clearTimeout(t); done(); };
  });

  async function pump() {
    if (running) return;
    running = true;
    try {
      while (queue.length && queue[0].version <= upTo) {
        const step = queue.shift();
        skip.hidden = skipping;
        el.classList.toggle('playing', !skipping);
        count.textContent = `(${queue.length + 1})`;
        if (step.text) note(step.text, true);
        if (!skipping) await play(step.event);
      }
    } finally {
      running = false;
      skipping = false;
      skip.hidden = true;
      el.classList.remove('playing');
      lines.querySelector('.now')?.classList.remove('now');
    }
  }

  function skipAll() {
    skipping = true;
    skip.hidden = true;
    layer.getAnimations({ subtree: true }).forEach((a) => a.finish());
    wake?.();
  }

  async function play(e) {
    // Where things are is read at the start of a frame, when the browser lays the page out
    // anyway: never in the middle of drawing the table.
    await new Promise((done) => requestAnimationFrame(done));
    if (skipping) return;
    const flights = route(e, context().mySeat);
    const started = flights.map((f, i) => fly(f, i)).filter(Boolean);
    await Promise.all(started.map((a) => a.finished.catch(() => {})));
    await wait(PAUSE_MS);
  }

  // Where things are on the table now. A part that is not drawn (a compact seat's top set,
  // the duel after it ended) falls back to its seat, then to the middle of the table.
  function anchors(mySeat) {
    const q = (sel) => root.querySelector(sel);
    const centre = q('.centre');
    const seat = (s) => q(`.seat[data-seat="${s}"]`) || centre;
    return {
      centre, seat,
      hand: (s) => (s === mySeat && q('.hand .cards')) || seat(s),
      top: (s) => seat(s).querySelector('.top-set .card') || seat(s),
      draw: q('.pile.draw .card') || centre,
      discard: q('.pile.discard .card') || centre,
      pile: (i) => q(`.pile.draft[data-pile="${i}"] .card`) || centre,
      pot: q('.duel .pot') || q('.duel') || centre,
    };
  }

  function route(e, mySeat) {
    const at = anchors(mySeat), { edition } = context();
    const face = (id) => (id ? cardFace(h, edition, id) : cardBack(h, ''));
    const copy = (s) => { const c = at.top(s); return c.classList.contains('card') ? c.cloneNode(true) : face(null); };
    const from = (where, ids, to) => ids.map((id) => ({ from: where, to, card: face(id) }));
    switch (e.type) {
      case 'round_started': return [...root.querySelectorAll('.seat[data-seat]')].map((el) => ({ from: at.draw, to: at.hand(Number(el.dataset.seat)), card: face(null) }));
      case 'cards_drawn': return from(at.draw, e.cards || Array(Math.min(e.count, 3)).fill(null), at.hand(e.seat));
      case 'card_discarded': return from(at.hand(e.seat), [e.card], at.discard);
      case 'set_formed': return e.source === 'discard'
        ? [...from(at.discard, [e.cards.at(-1)], at.top(e.seat)), ...from(at.hand(e.seat), [e.cards.length > 1 ? e.cards[0] : null], at.top(e.seat))]
        : from(at.hand(e.seat), e.cards.length > 1 ? e.cards : [...e.cards, null], at.top(e.seat));
      case 'set_improved': return from(at.hand(e.seat), [e.card], at.top(e.seat));
      case 'set_drafted': return [...e.pile_cards.map((p) => ({ from: at.pile(p.pile), to: at.top(e.seat), card: face(p.card) })),
        ...from(at.hand(e.seat), [e.hand_card], at.top(e.seat))];
      case 'challenge_opened':
        duel = { challenger: e.challenger, defender: e.defender };
        return [...from(at.hand(e.challenger), e.cards, at.pot), { from: at.top(e.defender), to: at.top(e.defender), card: copy(e.defender), pulse: true }];
      case 'challenge_answered': return from(at.hand(e.seat), e.cards, at.pot);
      case 'challenge_conceded': {
        const d = duel;
        duel = null;
        if (!d) return [];
        const winner = e.seat === d.defender ? d.challenger : d.defender;
        // The defender gave up: the set is stolen, from the defender's stack to the winner's.
        return [...(e.seat === d.defender ? [{ from: at.seat(d.defender), to: at.top(winner), card: copy(winner) }] : []),
          { from: at.pot, to: at.top(winner), card: face(null) }];
      }
      case 'swap_played': case 'revealed_swap_applied': {
        const [a, b] = e.type === 'swap_played' ? [e.seat, e.target_seat] : e.seats;
        return [{ from: at.top(b), to: at.top(a), card: copy(a) }, { from: at.top(a), to: at.top(b), card: copy(b) }];
      }
      case 'move_played': case 'move_direction_chosen':
        return [{ from: at.seat(e.target_seat), to: at.seat(e.target_seat), card: copy(e.target_seat), pulse: true }];
      case 'pile_card_revealed': return [{ from: at.pile(e.pile), to: at.pile(e.pile), card: face(e.card), flip: true }];
      default: return [];
    }
  }

  // One card's flight, a copy in the layer (the table below already shows where it ended).
  function fly({ from, to, card, flip = false, pulse = false }, i) {
    const a = from?.getBoundingClientRect(), b = to?.getBoundingClientRect();
    if (!a?.width || !b?.width) return null; // from or to not shown (a phone hides the piles in a duel)
    delete card.dataset.card;
    card.classList.add('ghost');
    layer.append(card);
    ghost ||= card.getBoundingClientRect(); // every copy is one size (the layer's --cw)
    const g = ghost;
    const at = (r, scale = 1) => `translate(${r.x + r.width / 2 - g.width / 2}px, ${r.y + r.height / 2 - g.height / 2}px) scale(${scale})`;
    const frames = flip
      ? [{ transform: `${at(b)} rotateY(90deg)`, opacity: 1 }, { transform: `${at(b)} rotateY(0deg)`, opacity: 1, offset: 0.6 }, { transform: at(b), opacity: 0 }]
      : pulse
        ? [{ transform: at(b, 1), opacity: 0 }, { transform: at(b, 1.25), opacity: 1, offset: 0.4 }, { transform: at(b, 1), opacity: 0 }]
        : [{ transform: at(a, 0.7), opacity: 0 }, { transform: at(a, 1), opacity: 1, offset: 0.15 },
          { transform: at(b, 1), opacity: 1, offset: 0.85 }, { transform: at(b, 0.9), opacity: 0 }];
    const anim = card.animate(frames, { duration: FLIGHT_MS, delay: i * STAGGER_MS, easing: 'ease-in-out', fill: 'both' });
    const gone = () => card.remove();
    anim.finished.then(gone, gone);
    return anim;
  }

  return {
    el,
    last,
    // Events told (the stream's, a command's answer); the table may not show them yet.
    add(items) {
      const ctx = context();
      for (const item of [...items].sort((x, y) => x.version - y.version)) {
        const e = item.event, text = QUIET.has(e.type) ? null : sentence(e, ctx);
        if (MOVES.has(e.type)) last.set(actor(e), text);
        // Before the page opened (the stream tells the game from its start), or no motion wanted.
        if (since === null || item.version <= since || reduced.matches) {
          if (text) note(text);
          continue;
        }
        queue.push({ ...item, text });
      }
      queue.sort((x, y) => x.version - y.version);
      // Far behind (a tab in the background, a reconnect): only the newest are played.
      while (queue.length > MOST_QUEUED) { const old = queue.shift(); if (old.text) note(old.text); }
      paint();
      pump();
    },
    // The table now shows `version` in `where`: replay what led to it, after this frame.
    shown(version, where) {
      root = where;
      if (since === null) since = version;
      upTo = Math.max(upTo, version);
      paint();
      requestAnimationFrame(() => setTimeout(pump, 0));
    },
    // The player moved: what led up to it has been seen.
    skip: () => { if (running) skipAll(); },
    stop() { skipAll(); layer.remove(); },
  };
}
