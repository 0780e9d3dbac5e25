import { t } from './i18n.js';

// A tiny element builder. Text always goes in as text nodes, never as HTML: player names and
// everything else from the server are untrusted.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// Announce a short message to screen readers and show it in the status line.
export function announce(text, kind = 'info') {
  const el = document.getElementById('status');
  el.dataset.kind = kind;
  el.textContent = text;
}

// Clear the status line if it still says `text` (and not something said since).
export function unannounce(text) {
  if (document.getElementById('status').textContent === text) announce('');
}

// A button that copies `text()` (a key, a link) to the clipboard.
export function copyButton(text, caption = t('copy')) {
  return h('button', {
    type: 'button',
    async onclick(ev) {
      const value = text();
      try { await navigator.clipboard.writeText(value); } catch {
        // No clipboard permission (plain http on another host): select it for Ctrl+C.
        ev.target.previousElementSibling?.select?.();
      }
      ev.target.textContent = t('copied');
      announce(t('copied.status'));
    },
  }, caption);
}
