// The start screen (#/ without a key): choose a name and get a key (shown once, with a copy
// button), or use a key made elsewhere. The key stays in this browser's localStorage. There
// are no accounts and no passwords: the key is all there is, and the page says so. Opened
// by an invitation link (#/join/ID) without a key, it says what the key is for.
import { api } from './api.js';
import { announce, copyButton, h, replace } from './dom.js';
import { current, session } from './store.js';

// On to where the person was going: an invitation link shows this screen at its own
// address, so moving there may need the router poked.
function go(next) {
  if (location.hash === next) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = next;
}

export function mount(root, params) {
  current.screen = 'start';
  current.state = null;
  const next = params.next || '#/lobby';
  if (session.key()) {
    replace(root, h('section', { class: 'start' },
      h('h1', {}, `Welcome back, ${session.name()}`),
      h('p', {}, h('a', { href: next, class: 'button primary' }, 'Go to the lobby')),
      h('p', {}, h('button', { onclick: () => { session.forget(); mount(root, params); } }, 'Forget the key in this browser'))));
    return;
  }
  const invited = /^#\/join\/([\w-]+)$/.exec(next)?.[1];
  const fail = (err) => announce(err.message, 'error');
  replace(root, h('section', { class: 'start' },
    invited ? invitation(invited) : h('h1', {}, 'Play Cover Your Assets'),
    h('form', {
      class: 'card-form', 'aria-labelledby': 'new-title',
      async onsubmit(ev) {
        ev.preventDefault();
        const name = ev.target.elements.name.value.trim();
        try { showKey(root, await api.createPlayer(name), next); } catch (err) { fail(err); }
      },
    },
    h('h2', { id: 'new-title' }, 'New here?'),
    h('label', { for: 'name' }, 'Your display name'),
    h('input', { id: 'name', name: 'name', required: true, maxlength: '40', autocomplete: 'nickname' }),
    h('button', { class: 'primary' }, 'Get my key')),
    h('form', {
      class: 'card-form', 'aria-labelledby': 'old-title',
      async onsubmit(ev) {
        ev.preventDefault();
        const key = ev.target.elements.key.value.trim();
        localStorage.setItem('cya.key', key);
        try { session.save({ ...(await api.me()), api_key: key }); go(next); } catch (err) { session.forget(); fail(err); }
      },
    },
    h('h2', { id: 'old-title' }, 'Have a key?'),
    h('label', { for: 'key' }, 'Use an existing API key'),
    h('input', { id: 'key', name: 'key', required: true, autocomplete: 'off', spellcheck: 'false' }),
    h('button', {}, 'Use this key')),
    h('p', { class: 'watch-link' }, 'Or ', h('a', { href: '#/lobby' }, 'watch the public games'), ' without a key.')));
}

// Before the deal a game's id is its invitation: its summary says who invites, to what.
function invitation(id) {
  const what = h('p', {}, 'Choose a name (or paste your key) to take your seat.');
  api.game(id).then(({ summary }) => {
    if (summary.status !== 'lobby') return;
    const rs = summary.ruleset;
    what.prepend(`${summary.names[summary.creator] || 'Someone'} invites you to a ${rs.players}-player game (${rs.edition}, ${rs.end_mode.replaceAll('_', ' ')}). `);
  }, () => {}); // the sentence above is enough without it
  return [h('h1', {}, 'You were invited to a game'), what];
}

function showKey(root, player, next) {
  session.save(player);
  replace(root, h('section', { class: 'start' },
    h('h1', {}, `Hello, ${player.name}`),
    h('p', {}, 'This is your API key. It is shown only this once: this browser keeps it, but copy it somewhere safe to play from elsewhere or to write a bot.'),
    h('div', { class: 'invite' },
      h('label', { for: 'new-key' }, 'Your API key'),
      h('input', { id: 'new-key', readonly: true, value: player.api_key }),
      copyButton(() => player.api_key, 'Copy key')),
    h('p', {}, h('a', { href: next, class: 'button primary', onclick: (ev) => { ev.preventDefault(); go(next); } }, 'Continue'))));
  document.getElementById('new-key').select();
}
