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

// The server's signed receipts of the games this browser reads (docs/receipts.md): kept per
// game, one per version, so the player can later hold the server to what it said. Only the
// latest MAX_GAMES games are kept: localStorage holds a few megabytes.
const RECEIPTS = 'cya.receipts', MAX_GAMES = 40;
const gameKey = (id) => `${RECEIPTS}.${id}`;

export const receipts = {
  of: (gameId) => JSON.parse(localStorage.getItem(gameKey(gameId)) || '{}'),
  games: () => JSON.parse(localStorage.getItem(RECEIPTS) || '[]'),
  keep(receipt) {
    if (!receipt || !receipt.game_id) return;
    const kept = receipts.of(receipt.game_id);
    if (kept[receipt.version]) return;
    kept[receipt.version] = receipt;
    const games = receipts.games().filter((id) => id !== receipt.game_id);
    games.push(receipt.game_id);
    for (;;) {
      while (games.length > MAX_GAMES) localStorage.removeItem(gameKey(games.shift()));
      try {
        localStorage.setItem(gameKey(receipt.game_id), JSON.stringify(kept));
        localStorage.setItem(RECEIPTS, JSON.stringify(games));
        return;
      } catch (err) { // full: make room by the oldest game, unless this is the only one
        if (games.length <= 1) return;
        localStorage.removeItem(gameKey(games.shift()));
      }
    }
  },
};
