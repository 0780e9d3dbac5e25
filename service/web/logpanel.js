// The log panel: the game told in sentences (log.js), newest at the bottom, kept scrolled
// to the end unless the reader has scrolled up. It folds away (a phone has the last few
// events by the table already); whether it is open is remembered in this browser.
import { h } from './dom.js';
import { sentence } from './log.js';
import { t } from './i18n.js';

const FOLDED = 'cya.log.folded';

export function logPanel(context) {
  const list = h('ol', { class: 'log-lines' });
  const box = h('div', { class: 'log-scroll', tabindex: '0', role: 'region', 'aria-label': t('log.region') }, list);
  const fold = h('details', { open: localStorage.getItem(FOLDED) !== '1' },
    h('summary', {}, h('h2', { id: 'log-title' }, t('log.title'))), box);
  fold.addEventListener('toggle', () => {
    localStorage.setItem(FOLDED, fold.open ? '0' : '1');
    if (fold.open) box.scrollTop = box.scrollHeight;
  });
  const el = h('aside', { class: 'log', 'aria-labelledby': 'log-title' }, fold);
  return {
    el,
    add(items) {
      const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
      const ctx = context();
      for (const { version, event } of items) {
        // A command's answer can come before the stream's earlier events: keep version order.
        const li = h('li', { dataset: { version }, class: `e-${event.type}` }, sentence(event, ctx));
        let after = list.lastElementChild;
        while (after && Number(after.dataset.version) > version) after = after.previousElementSibling;
        if (after) after.after(li); else list.prepend(li);
      }
      if (atEnd) box.scrollTop = box.scrollHeight;
    },
  };
}
