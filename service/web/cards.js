// Card names and values per edition, from GET /v1/rulesets (loaded once). A card id is
// `<type>#<n>`; its type carries the name and value. de_2024 games use the German names.
import { api } from './api.js';

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

export const money = (n) => (n === null || n === undefined ? '—' : `$${n.toLocaleString('en-US')}`);

// "Gold ($50,000)"; action cards have no value.
export function label(edition, id) {
  const c = info(edition, id);
  return c.kind === 'action' ? typeName(edition, id) : `${typeName(edition, id)} (${money(c.value)})`;
}

// A card as the page shows it: name and value, its id in data-card (tests and the audit
// viewer read it; it is a card the viewer may see anyway).
export function cardFace(h, edition, id, attrs = {}) {
  const c = info(edition, id);
  return h(attrs.tag || 'span', {
    ...attrs, tag: undefined, class: `card ${c.kind} t-${cardType(id)} ${attrs.class || ''}`,
    dataset: { card: id, ...(attrs.dataset || {}) },
  }, h('span', { class: 'name', lang: edition === 'de_2024' ? 'de' : null }, typeName(edition, id)),
  c.kind === 'action' ? null : [' ', h('span', { class: 'value' }, money(c.value))]);
}
