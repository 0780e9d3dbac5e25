// The start screen (#/): one click to play. Against bots (dealt at once), quick play (people
// looking now), a friend (a private table and its link), or a custom game (every rule). A
// player needs no account: a name (or none: a guest) gets a key this browser keeps. The key
// can be shown and copied (for a bot, or another browser), or one made elsewhere used here.
// Opened by an invitation link (#/join/ID) without a key, it says who invites, to what.
import { api } from './api.js';
import { announce, copyButton, h, replace } from './dom.js';
import { t } from './i18n.js';
import { DEFAULT_PLAYERS, ensurePlayer, inviteFriends, playBots, seek } from './play.js';
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
  const invited = /^#\/join\/([\w-]+)$/.exec(next)?.[1];
  replace(root, h('section', { class: 'start' },
    invited ? invitation(invited, next) : home(),
    invited ? null : playNow(),
    keys(root, params, next)));
}

function home() {
  return [h('h1', {}, session.key() ? t('start.welcome', { name: session.name() }) : t('start.title')),
    h('p', { class: 'pitch' }, t('start.pitch'))];
}

// The one-click choices. Each button does its whole job: a key if needed, then the game.
function playNow() {
  const players = h('select', { id: 'players', name: 'players' },
    [2, 3, 4, 5, 6].map((n) => h('option', { value: n, selected: n === DEFAULT_PLAYERS }, t('start.playersN', { n }))));
  const botsHint = h('small', { id: 'bots-hint' }, t('start.botsHint', { n: DEFAULT_PLAYERS }));
  players.addEventListener('change', () => { botsHint.textContent = t('start.botsHint', { n: Number(players.value) }); });
  const name = session.key() ? null : h('input', { id: 'name', name: 'name', maxlength: '40', autocomplete: 'nickname', 'aria-describedby': 'name-hint' });
  const act = (job) => async (ev) => {
    const buttons = ev.target.closest('.play-now').querySelectorAll('button');
    buttons.forEach((b) => { b.disabled = true; });
    try {
      await ensurePlayer(name?.value);
      location.hash = await job(Number(players.value));
    } catch (err) {
      announce(err.message, 'error');
      buttons.forEach((b) => { b.disabled = false; });
    }
  };
  const choice = (cls, label, hintId, hint, onclick) => h('div', { class: 'choice' },
    h('button', { type: 'button', class: cls, 'aria-describedby': hintId, onclick }, label),
    hint instanceof Node ? hint : h('small', { id: hintId }, hint));
  return h('section', { class: 'play-now', 'aria-labelledby': 'play-now-title' },
    h('h2', { id: 'play-now-title', class: 'sr-only' }, t('lobby.playNow')),
    name ? h('div', { class: 'field' }, h('label', { for: 'name' }, t('start.name')), name,
      h('small', { id: 'name-hint' }, t('start.nameHint'))) : null,
    h('div', { class: 'field' }, h('label', { for: 'players' }, t('start.players')), players),
    h('div', { class: 'choices' },
      choice('primary big', t('start.bots'), 'bots-hint', botsHint, act(async (n) => {
        announce(t('start.starting'));
        return `#/game/${await playBots(n)}`;
      })),
      choice('big', t('start.quick'), 'quick-hint', t('start.quickHint'), act(async (n) => `#/seek/${(await seek(n)).seek_id}`)),
      choice('big', t('start.invite'), 'invite-hint', t('start.inviteHint'), act(async (n) => `#/game/${await inviteFriends(n)}`)),
      h('div', { class: 'choice' }, h('a', { class: 'button big', href: '#/custom', 'aria-describedby': 'custom-hint' }, t('start.custom')),
        h('small', { id: 'custom-hint' }, t('start.customHint')))),
    h('p', { class: 'watch-link' }, h('a', { href: '#/lobby' }, session.key() ? t('start.lobby') : t('start.watch'))));
}

// For bot authors and other browsers: get a key to copy, use one, show or forget this one.
function keys(root, params, next) {
  const fail = (err) => announce(err.message, 'error');
  if (session.key()) {
    const shown = h('div');
    return h('section', { class: 'keys', 'aria-labelledby': 'keys-title' },
      h('h2', { id: 'keys-title' }, t('start.keyTitle')),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', onclick: () => replace(shown, keyBox(session.key())) }, t('start.showKey')),
        h('button', { type: 'button', onclick: () => { session.forget(); mount(root, params); } }, t('start.forget'))),
      shown);
  }
  return h('section', { class: 'keys', 'aria-labelledby': 'keys-title' },
    h('h2', { id: 'keys-title' }, t('start.keyTitle')),
    h('p', {}, t('start.keyText')),
    h('button', {
      type: 'button',
      async onclick() {
        const name = document.getElementById('name')?.value.trim() || `${t('start.guest')} ${Math.floor(1000 + Math.random() * 9000)}`;
        try { showKey(root, await api.createPlayer(name), next); } catch (err) { fail(err); }
      },
    }, t('start.newKey')),
    h('form', {
      class: 'card-form',
      async onsubmit(ev) {
        ev.preventDefault();
        const key = ev.target.elements.key.value.trim();
        localStorage.setItem('cya.key', key);
        try { session.save({ ...(await api.me()), api_key: key }); go(next); } catch (err) { session.forget(); fail(err); }
      },
    },
    h('label', { for: 'key' }, t('start.haveKey')),
    h('input', { id: 'key', name: 'key', required: true, autocomplete: 'off', spellcheck: 'false' }),
    h('button', {}, t('start.useKey'))));
}

const keyBox = (key) => h('div', { class: 'invite' },
  h('label', { for: 'new-key' }, t('start.yourKey')),
  h('input', { id: 'new-key', readonly: true, value: key }),
  copyButton(() => key, t('start.copyKey')));

// Before the deal a game's id is its invitation: its summary says who invites, to what.
function invitation(id, next) {
  const what = h('p', {}, t('start.invitedText'));
  api.game(id).then(({ summary }) => {
    if (summary.status !== 'lobby') return;
    const rs = summary.ruleset;
    what.prepend(t('start.invitedBy', { who: summary.names[summary.creator] || t('start.someone'), n: rs.players, edition: t(`edition.${rs.edition}`), end: t(`end.${rs.end_mode}`) }));
  }, () => {}); // the sentence above is enough without it
  return [h('h1', {}, t('start.invited')), what,
    h('div', { class: 'field' }, h('label', { for: 'name' }, t('start.name')),
      h('input', { id: 'name', name: 'name', maxlength: '40', autocomplete: 'nickname' })),
    h('p', {}, h('button', {
      type: 'button', class: 'primary big',
      async onclick(ev) {
        ev.target.disabled = true;
        try { await ensurePlayer(document.getElementById('name').value); go(next); } catch (err) {
          announce(err.message, 'error'); ev.target.disabled = false;
        }
      },
    }, t('start.takeSeat')))];
}

function showKey(root, player, next) {
  session.save(player);
  replace(root, h('section', { class: 'start' },
    h('h1', {}, t('start.hello', { name: player.name })),
    h('p', {}, t('start.keyOnce')),
    keyBox(player.api_key),
    h('p', {}, h('a', { href: next, class: 'button primary', onclick: (ev) => { ev.preventDefault(); go(next); } }, t('start.continue')))));
  document.getElementById('new-key').select();
}
