// Table talk: four preset reactions to send (a seated player), and every reaction heard shown
// for a few seconds over the table (players and watchers alike). They travel as the game's
// own `reaction_sent` events; the server keeps the pace (one per seat every few seconds), and
// a refusal is said, with the buttons resting until it may be sent again.
import { api } from './api.js';
import { announce, h } from './dom.js';
import { t } from './i18n.js';

export const REACTIONS = ['good_game', 'well_played', 'nice_steal', 'oops'];
const SHOWN_MS = 4000;

// The bubbles of heard reactions: one polite live region for the whole page.
let bubbles = null;
function bubbleBox() {
  if (!bubbles || !bubbles.isConnected) {
    bubbles = h('div', { class: 'reaction-bubbles', role: 'status', 'aria-live': 'polite' });
    document.body.append(bubbles);
  }
  return bubbles;
}

// Shows the reactions among `items` (stream or page items, `{version, event}`); `names()`:
// the seats' display names.
export function showReactions(items, names) {
  for (const { event } of items) {
    if (event.type !== 'reaction_sent') continue;
    const bubble = h('p', { class: `reaction-bubble r-${event.reaction}` },
      t('react.said', { who: names()[event.seat] ?? `#${event.seat + 1}`, what: t(`react.${event.reaction}`) }));
    bubbleBox().append(bubble);
    setTimeout(() => bubble.remove(), SHOWN_MS);
  }
}

// The buttons, for a seated player of game `id`. `seated(bool)` shows or hides them.
export function reactionBar(id) {
  let resting = null;
  const rest = (seconds) => {
    buttons.forEach((b) => { b.disabled = true; });
    clearTimeout(resting);
    resting = setTimeout(() => buttons.forEach((b) => { b.disabled = false; }), seconds * 1000);
  };
  const send = (reaction) => async () => {
    rest(30); // until the answer; then the pace the server keeps
    try {
      await api.react(id, reaction);
      rest(5);
    } catch (err) {
      announce(err.status === 429 ? t('react.wait') : err.message, 'warn');
      rest(err.status === 429 ? 2 : 0);
    }
  };
  const buttons = REACTIONS.map((r) => h('button', { type: 'button', class: `reaction r-${r}`, onclick: send(r) }, t(`react.${r}`)));
  const el = h('section', { class: 'reactions', 'aria-labelledby': 'reactions-title', hidden: true },
    h('h2', { id: 'reactions-title' }, t('react.title')),
    h('div', { class: 'buttons' }, buttons));
  return { el, seated: (yes) => { el.hidden = !yes; }, stop: () => clearTimeout(resting) };
}
