// Dragging a card from the hand onto a seat or the discard pile. While a card is dragged the
// page scrolls when the pointer nears the window's top or bottom edge: on a phone the seats
// are below the fold. Browsers scroll a dragging page by themselves only within a thin belt
// at the very edge (Chromium: about 20 px), hard to find with a finger; this starts farther
// in, and stands aside in a frame where the browser's own scrolling moved the page. A drag
// that ends on no target says so (`missed`), instead of doing nothing.

const EDGE = 64; // px from the window's edge where scrolling starts
const FASTEST = 24; // px a frame with the pointer at (or past) the edge
// Browsers repeat `dragover` while a dragged card rests (every few hundred ms). Without one for
// this long the scrolling stops: the page never runs away with a pointer it lost track of.
const STALE_MS = 1000;

let drag = null; // { card, taken, missed, y, seen, frame, last }

export function startDrag(ev, card, { missed }) {
  ev.dataTransfer.setData('text/plain', card);
  ev.dataTransfer.effectAllowed = 'move';
  stop();
  drag = { card, taken: false, missed, y: null, seen: 0, frame: 0, last: null };
}

// A target's `drop`: the card it got (null: not a card of ours). The target now answers for
// the drop, even if no move takes the card there: it tells the player so.
export function takeDrop(ev) {
  ev.preventDefault();
  if (drag) drag.taken = true;
  stop();
  return ev.dataTransfer.getData('text/plain') || null;
}

// Pixels to scroll this frame: negative near the top, positive near the bottom, 0 between.
function speed(y) {
  const into = y < EDGE ? y - EDGE : y > innerHeight - EDGE ? y - (innerHeight - EDGE) : 0;
  return Math.round(Math.max(-1, Math.min(1, into / EDGE)) * FASTEST);
}

function scroll() {
  if (!drag) return;
  drag.frame = 0;
  const step = drag.y === null || performance.now() - drag.seen > STALE_MS ? 0 : speed(drag.y);
  if (!step) { drag.last = null; return; }
  // `last`: where this left the page a frame ago. Moved since: the browser scrolls as well.
  if (drag.last === null || drag.last === scrollY) scrollBy(0, step);
  // Nothing moved at all: the page's end. Wait for the pointer to move again.
  if (drag.last === scrollY) { drag.last = null; return; }
  drag.last = scrollY;
  drag.frame = requestAnimationFrame(scroll);
}

function stop() {
  if (drag?.frame) cancelAnimationFrame(drag.frame);
  if (drag) drag.frame = 0;
}

// `dragover` comes as the pointer moves, and again and again while it rests: each one says
// where the pointer is, and starts scrolling if it is near an edge.
document.addEventListener('dragover', (ev) => {
  if (!drag) return;
  drag.y = ev.clientY;
  drag.seen = performance.now();
  if (!drag.frame) drag.frame = requestAnimationFrame(scroll);
});

document.addEventListener('dragend', () => {
  if (!drag) return;
  const { taken, missed, card } = drag;
  stop();
  drag = null;
  if (!taken) missed(card);
});
