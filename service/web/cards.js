// Card names and values per edition, from GET /v1/rulesets (loaded once). A card id is
// `<type>#<n>`; its type carries the name and value. de_2024 games use the German names.
import { api } from './api.js';
import { lang, t } from './i18n.js';
import { art } from './pictures.js';

let types = null; // edition -> type -> {kind, value, name_en, name_de}

export async function loadCards() {
  if (types) return;
  const catalogue = await api.rulesets();
  types = {};
  for (const e of catalogue.editions) {
    types[e.id] = {};
    for (const c of [...e.classic_cards, ...e.advanced_cards]) types[e.id][c.type] = c;
  }
}

export const cardType = (id) => id.split('#')[0];

export function info(edition, idOrType) {
  return types?.[edition]?.[cardType(idOrType)] || { kind: 'asset', value: 0, name_en: idOrType, name_de: idOrType };
}

export const typeName = (edition, idOrType) => {
  const c = info(edition, idOrType);
  return edition === 'de_2024' ? c.name_de : c.name_en;
};

// German writes the amount first and groups by points: 130.000 $ (as the custom form's words do),
// with a no-break space: an amount is never cut over two lines.
export const money = (n) => (n === null || n === undefined ? '—'
  : lang() === 'de' ? `${n.toLocaleString('de-DE')}\u00a0$` : `$${n.toLocaleString('en-US')}`);

// "Gold ($50,000)"; action cards have no value.
export function label(edition, id) {
  const c = info(edition, id);
  return c.kind === 'action' ? typeName(edition, id) : `${typeName(edition, id)} (${money(c.value)})`;
}

// A value band colours the value chip, so equal values look alike across editions.
const band = (c) => (c.kind !== 'asset' ? c.kind : c.value >= 20_000 ? 'v20' : c.value >= 15_000 ? 'v15' : c.value >= 10_000 ? 'v10' : 'v5');
// German compounds break where a reader expects, not anywhere (<wbr>: no character added,
// so the card's text stays its name).
const JOINS = /(?<=.{4})(sammlung|karten|eisenbahn|geld|flugzeug|roller|glas|schwein|boot|konto|heim|stapel)$/;

const pieces = (word) => {
  const m = word.length > 9 && word.match(JOINS);
  return m ? [word.slice(0, m.index), m[1]] : [word];
};

// Words as text with a <wbr> at each such join: "Nachzieh<wbr>stapel" under a narrow pile.
export function nameParts(h, name) {
  return name.split(' ').flatMap((word, i) => {
    const parts = pieces(word).flatMap((p, j) => (j ? [h('wbr'), p] : [p]));
    return i ? [' ', ...parts] : parts;
  });
}

// The longest piece a name may not break inside: the stylesheet sizes the name's type so it
// fits the card's width (a word is never cut in its middle: "Matratzen", "verdeckt").
const longest = (name) => `--longest:${Math.max(...name.split(' ').flatMap(pieces).map((p) => p.length))}`;

// A card as the page shows it: its picture, name and value (a ribbon says WILD or ACTION), its id in
// data-card (tests and the audit viewer read it; it is a card the viewer may see anyway).
// The text reads "Name $value": the value chip sits on top by the stylesheet, not by order.
export function cardFace(h, edition, id, attrs = {}) {
  const c = info(edition, id), type = cardType(id), name = typeName(edition, id);
  return h(attrs.tag || 'span', {
    ...attrs, tag: undefined, class: `card ${c.kind} ${band(c)} t-${type} ${attrs.class || ''}`,
    // The ribbon is drawn by the stylesheet from data-ribbon: not part of the card's text.
    dataset: { card: id, ...(c.kind === 'asset' ? {} : { ribbon: t(`ribbon.${c.kind}`) }), ...(attrs.dataset || {}) },
  }, art(type),
  h('span', { class: `name${name.length > 16 || name.split(' ').some((w) => w.length > 10) ? ' long' : ''}`, lang: edition === 'de_2024' ? 'de' : null, style: longest(name) }, nameParts(h, name)),
  c.kind === 'action' ? null : [' ', h('span', { class: 'value' }, money(c.value))]);
}

// A face-down card: the pattern of the deck's back, and what it stands for as text.
export function cardBack(h, text, attrs = {}) {
  return h('span', { ...attrs, class: `card back ${attrs.class || ''}` }, h('span', { class: 'name', style: longest(text) }, text));
}
