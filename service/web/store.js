// What the browser keeps: the player's key and name (localStorage), and the screen's current
// state, published on `window.cya` so a reader (or a test) can see everything the page holds.
const KEY = 'cya.key', NAME = 'cya.name', ID = 'cya.player';

export const session = {
  key: () => localStorage.getItem(KEY),
  name: () => localStorage.getItem(NAME),
  playerId: () => localStorage.getItem(ID),
  save({ api_key, name, player_id }) {
    if (api_key) localStorage.setItem(KEY, api_key);
    localStorage.setItem(NAME, name);
    localStorage.setItem(ID, player_id);
  },
  forget() { for (const k of [KEY, NAME, ID]) localStorage.removeItem(k); },
};

// The screen on show puts its state here (and nothing else keeps game data).
export const current = { screen: null, state: null };
window.cya = current;
