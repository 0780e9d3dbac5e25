// The cards' pictures: one small vector drawing per card type, drawn for this project. They
// are put in the page once, as <symbol>s of one hidden sprite, and each card shows its type's
// with <use>: a table of 60 cards adds 60 tiny elements, not 60 copies of each drawing.
// Every drawing is on a 40×40 grid; colours are fixed (they are the card's print).
const NS = 'http://www.w3.org/2000/svg';
const O = 'stroke="#2b2f36" stroke-width="1.4" stroke-linejoin="round"';

// Bars for the wilds: gold and silver differ in colour and in the shine drawn on them.
const bars = (fill, dark, shine) => `<path d="M5 33h14l-2-7H7zM21 33h14l-2-7H23zM13 25h14l-2-7H15z" fill="${fill}" ${O}/>`
  + `<path d="M8 27.5h7M24 27.5h7M16 19.5h7" stroke="${shine}" stroke-width="1.6"/><path d="M20 4v6M14 7l2.5 3.5M26 7l-2.5 3.5" stroke="${dark}" stroke-width="2" stroke-linecap="round"/>`;

export const ART = {
  gold: bars('#f1c232', '#b8860b', '#fff3b0'),
  silver: bars('#d5dbe3', '#7b8594', '#fff'),
  penny_jar: `<path d="M11 12h18v3c3 2 4 5 4 9v8a3 3 0 0 1-3 3H10a3 3 0 0 1-3-3v-8c0-4 1-7 4-9z" fill="#cfe8f3" ${O}/><rect x="10" y="7" width="20" height="5" rx="1.5" fill="#9aa4b1" ${O}/>`
    + '<g fill="#c8743a" stroke="#7a3f16" stroke-width="1"><ellipse cx="15" cy="29" rx="4" ry="2"/><ellipse cx="24" cy="30" rx="4" ry="2"/><ellipse cx="19" cy="26" rx="4" ry="2"/><ellipse cx="26" cy="25" rx="3.5" ry="1.8"/></g>',
  swap: '<g fill="none" stroke="#2f3f9e" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"><path d="M8 14h22M24 8l6 6-6 6"/><path d="M32 27H10M16 21l-6 6 6 6"/></g>',
  move: '<rect x="8" y="6" width="16" height="7" rx="1.5" fill="#b9c3f0" stroke="#2f3f9e" stroke-width="1.4"/><rect x="8" y="16" width="16" height="7" rx="1.5" fill="#dfe4fa" stroke="#2f3f9e" stroke-width="1.4"/><rect x="8" y="26" width="16" height="7" rx="1.5" fill="#b9c3f0" stroke="#2f3f9e" stroke-width="1.4"/>'
    + '<path d="M31 8v24M27 12l4-4 4 4M27 28l4 4 4-4" fill="none" stroke="#2f3f9e" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  home: `<path d="M7 19 20 8l13 11" fill="none" stroke="#a5322a" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><path d="M10 18v15h20V18L20 10z" fill="#f4e3c8" ${O}/>`
    + `<rect x="17" y="24" width="6" height="9" fill="#8a5a34" ${O}/><rect x="12" y="20" width="4" height="4" fill="#9fd3ef" stroke="#2b2f36"/><rect x="24" y="20" width="4" height="4" fill="#9fd3ef" stroke="#2b2f36"/>`,
  jewels: `<path d="M8 16l5-7h14l5 7-12 16z" fill="#57c4d8" ${O}/><path d="M8 16h24M13 9l3 7 4-7 4 7 3-7M16 16l4 16 4-16" fill="none" stroke="#1d6f80" stroke-width="1"/>`
    + '<path d="M31 5v5M28.5 7.5h5" stroke="#f0b400" stroke-width="1.4" stroke-linecap="round"/>',
  classic_auto: `<path d="M4 27v-4l4-1 4-7h13l5 6 6 1v5z" fill="#c0392b" ${O}/><path d="M14 16h5v5h-8zM21 16h3.5l4 5H21z" fill="#d6eef8" stroke="#2b2f36"/>`
    + `<g fill="#2b2f36"><circle cx="11" cy="28" r="4"/><circle cx="29" cy="28" r="4"/></g><g fill="#cfd4da"><circle cx="11" cy="28" r="1.6"/><circle cx="29" cy="28" r="1.6"/></g>`,
  bank_account: `<path d="M5 14 20 6l15 8z" fill="#d9dee6" ${O}/><path d="M7 31h26v3H7zM8 16h24v2H8z" fill="#b7c0cc" ${O}/><path d="M11 19v11M17 19v11M23 19v11M29 19v11" stroke="#6b7686" stroke-width="3"/>`
    + '<circle cx="20" cy="11" r="2" fill="#f1c232" stroke="#2b2f36"/>',
  coin_collection: '<g stroke="#7a5a0a" stroke-width="1.4"><circle cx="14" cy="16" r="8" fill="#e6c15a"/><circle cx="26" cy="18" r="8" fill="#c8cdd4" stroke="#5e6672"/><circle cx="19" cy="27" r="8" fill="#d08a4a" stroke="#7a3f16"/></g>'
    + '<g fill="none" stroke-width="1"><circle cx="14" cy="16" r="5.5" stroke="#7a5a0a"/><circle cx="26" cy="18" r="5.5" stroke="#5e6672"/><circle cx="19" cy="27" r="5.5" stroke="#7a3f16"/></g><path d="M17.5 27h3M19 25v4" stroke="#7a3f16"/>',
  stocks: '<path d="M6 6v28h28" fill="none" stroke="#2b2f36" stroke-width="1.6"/><g fill="#b8d8c8" stroke="#2b2f36"><rect x="9" y="25" width="4" height="8"/><rect x="15" y="21" width="4" height="12"/><rect x="21" y="23" width="4" height="10"/><rect x="27" y="15" width="4" height="18"/></g>'
    + '<path d="M8 22l7-6 6 3 11-11" fill="none" stroke="#1e8a4c" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/><path d="M26 8h6v6" fill="none" stroke="#1e8a4c" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  baseball_cards: `<rect x="7" y="5" width="19" height="27" rx="2" fill="#f6f1e1" ${O} transform="rotate(-8 16 18)"/><rect x="13" y="8" width="19" height="27" rx="2" fill="#fffdf6" ${O}/><circle cx="22.5" cy="19" r="6" fill="#fff" ${O}/>`
    + '<path d="M18.5 15c2 2.5 2 5.5 0 8M26.5 15c-2 2.5-2 5.5 0 8" fill="none" stroke="#c0392b" stroke-width="1.2"/><path d="M16 30h13" stroke="#2f3f9e" stroke-width="2"/>',
  cash_under_mattress: `<rect x="10" y="11" width="22" height="11" rx="1.5" fill="#8fd19e" ${O} transform="rotate(-10 21 16)"/><circle cx="21" cy="16" r="3" fill="none" stroke="#1e6b34" stroke-width="1.2" transform="rotate(-10 21 16)"/>`
    + `<rect x="4" y="20" width="32" height="12" rx="4" fill="#e9eef8" ${O}/><path d="M10 24v4M17 24v4M24 24v4M31 24v4" stroke="#9aa6bf" stroke-width="1.4" stroke-linecap="round"/>`,
  stamp_collection: '<path d="M9 7h22v26H9z" fill="#fff" stroke="#2b2f36" stroke-width="1.4" stroke-dasharray="2 1.4"/><rect x="12" y="10" width="16" height="16" fill="#9fd3ef"/><path d="M12 26l6-8 4 5 3-3 3 6z" fill="#3f8f5a"/><circle cx="24" cy="14" r="2" fill="#f1c232"/>'
    + '<path d="M13 30h9" stroke="#a5322a" stroke-width="1.4"/>',
  piggy_bank: `<ellipse cx="19" cy="21" rx="12" ry="9" fill="#f4a7b9" ${O}/><path d="M10 15l-1-6 6 3z" fill="#f4a7b9" ${O}/><rect x="29" y="18" width="5" height="6" rx="2" fill="#f7bfcc" ${O}/>`
    + `<path d="M12 28v5M24 28v5" stroke="#2b2f36" stroke-width="3" stroke-linecap="round"/><path d="M16 12h7" stroke="#7a2f44" stroke-width="2" stroke-linecap="round"/><circle cx="25" cy="18" r="1.3" fill="#2b2f36"/><circle cx="20" cy="6" r="3.5" fill="#f1c232" ${O}/>`,
  comic_books: `<path d="M5 10h20v22H5z" fill="#ffe066" ${O}/><path d="M25 10l10-4v22l-10 4z" fill="#f08c3a" ${O}/>`
    + `<path d="M9 16l3 1 1-3 2 3 3-2-1 3 3 2-3 1 1 3-3-1-2 3-1-3-3 1 1-3-3-2z" fill="#e03131" ${O.replace('1.4', '1')}/>`,
  piano: `<rect x="4" y="12" width="32" height="18" rx="1.5" fill="#fff" ${O}/><path d="M10.5 12v18M17 12v18M23.5 12v18M30 12v18" stroke="#2b2f36" stroke-width="1.2"/>`
    + '<g fill="#2b2f36"><rect x="8.5" y="12" width="4" height="10"/><rect x="15" y="12" width="4" height="10"/><rect x="21.5" y="12" width="4" height="10"/><rect x="28" y="12" width="4" height="10"/></g><path d="M4 10h32" stroke="#6b3d1e" stroke-width="3"/>',
  toy_train: `<rect x="5" y="14" width="14" height="13" fill="#2f6fd6" ${O}/><rect x="19" y="19" width="15" height="8" fill="#e03131" ${O}/><rect x="8" y="9" width="5" height="5" fill="#2b2f36"/>`
    + '<rect x="8" y="17" width="7" height="5" fill="#d6eef8" stroke="#2b2f36"/><g fill="#2b2f36"><circle cx="10" cy="30" r="3"/><circle cx="17" cy="30" r="3"/><circle cx="24" cy="30" r="3"/><circle cx="31" cy="30" r="3"/></g><path d="M34 24h3" stroke="#2b2f36" stroke-width="2"/>',
  scooter: '<path d="M26 8h5M28.5 8l3 21M10 29h21" fill="none" stroke="#2b2f36" stroke-width="2.4" stroke-linecap="round"/><path d="M7 25h14l3 4H7z" fill="#12b886" stroke="#2b2f36" stroke-width="1.2"/>'
    + '<g fill="#fff" stroke="#2b2f36" stroke-width="2.4"><circle cx="10" cy="30" r="3.5"/><circle cx="31" cy="30" r="3.5"/></g>',
  sport_plane: `<path d="M20 4c2 0 2.5 3 2.5 6v6l13 5v3l-13-2v8l4 3v2l-6.5-1.5L13.5 35v-2l4-3v-8l-13 2v-3l13-5v-6c0-3 .5-6 2.5-6z" fill="#f8f9fa" ${O}/>`
    + '<path d="M4.5 21.5 17.5 17M35.5 21.5 22.5 17" stroke="#e03131" stroke-width="1.6"/><circle cx="20" cy="10" r="1.6" fill="#4dabf7"/>',
  cabin: `<path d="M5 19 20 8l15 11" fill="#8a5a34" ${O}/><rect x="26" y="8" width="4" height="7" fill="#6b3d1e" ${O}/><path d="M8 18h24v15H8z" fill="#c98a4a" ${O}/>`
    + '<path d="M8 22h24M8 26h24M8 30h24" stroke="#7a4a20" stroke-width="1"/><rect x="17" y="24" width="6" height="9" fill="#6b3d1e" stroke="#2b2f36"/><rect x="11" y="21" width="4" height="4" fill="#ffe066" stroke="#2b2f36"/>',
  speed_boat: `<path d="M4 22h30l-5 8H9z" fill="#fff" ${O}/><path d="M5 25h27" stroke="#e03131" stroke-width="2"/><path d="M14 22l4-6h8l3 6z" fill="#d6eef8" ${O}/>`
    + '<path d="M2 34c3-2 5-2 8 0s5 2 8 0 5-2 8 0 5 2 8 0" fill="none" stroke="#1c7ed6" stroke-width="1.8" stroke-linecap="round"/>',
};

let sprite = null;

// Puts the sprite in the page, once; the drawings are this file's own text, never the server's.
export function ensureArt() {
  if (sprite?.isConnected) return;
  sprite = document.createElementNS(NS, 'svg');
  sprite.setAttribute('aria-hidden', 'true');
  sprite.setAttribute('class', 'art-sprite');
  sprite.innerHTML = Object.entries(ART).map(([t, body]) => `<symbol id="art-${t}" viewBox="0 0 40 40">${body}</symbol>`).join('');
  document.body.prepend(sprite);
}

// One card's picture: a decoration (the card's name is its text).
export function art(type) {
  ensureArt();
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'art');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const use = document.createElementNS(NS, 'use');
  use.setAttribute('href', `#art-${ART[type] ? type : 'back'}`);
  svg.append(use);
  return svg;
}
