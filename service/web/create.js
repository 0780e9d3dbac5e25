// The "Create a game" form, built from GET /v1/rulesets: every rule option with its
// description, as the server documents it, plus the table's settings (seats and bots, turn
// clock, timeout policy, public or private, the spectator delay).
import { api } from './api.js';
import { announce, h, replace } from './dom.js';

const words = (s) => String(s).replaceAll('_', ' ');
const title = (s) => words(s).replace(/^./, (c) => c.toUpperCase());

export function createForm(catalogue) {
  // The server's bot levels, weakest first, each with how it plays.
  const botOptions = () => catalogue.bot_levels.map(({ level, description }) =>
    h('option', { value: level, title: description }, `${level} bot`));
  const schema = catalogue.ruleset_schema.$defs;
  const props = schema.RuleSet.properties;
  const enumOf = (p) => schema[p.$ref?.split('/').at(-1)]?.enum;
  const field = (name, p, control) => h('div', { class: `field f-${name}` },
    h('label', { for: `rs-${name}` }, title(name)), control,
    h('small', { id: `rs-${name}-help` }, p.description));
  const select = (name, options, value) => h('select', { id: `rs-${name}`, name, 'aria-describedby': `rs-${name}-help` },
    options.map(([v, text]) => h('option', { value: JSON.stringify(v), selected: v === value }, text)));
  const check = (name, p) => h('div', { class: `field check f-${name}` },
    h('input', { type: 'checkbox', id: `rs-${name}`, name, checked: p.default, 'aria-describedby': `rs-${name}-help` }),
    h('label', { for: `rs-${name}` }, title(name)), h('small', { id: `rs-${name}-help` }, p.description));

  // One control per rule option, from its schema: an enum is a select, a boolean a checkbox,
  // "true, false or null" a three-way select.
  // A boolean with no default takes the edition's own when left out of the request.
  function control(name, p) {
    if (p.readOnly) return null; // the server sets it (rules_version)
    if (name === 'players') return field(name, p, select(name, [2, 3, 4, 5, 6].map((n) => [n, `${n} players`]), 4));
    if (name === 'first_player') return field(name, p, select(name, [['random', 'random'], ...[0, 1, 2, 3, 4, 5].map((n) => [n, `seat ${n + 1}`])], 'random'));
    if (enumOf(p)) return field(name, p, select(name, enumOf(p).map((v) => [v, words(v)]), p.default));
    if (p.type === 'boolean' && p.default !== undefined) return check(name, p);
    if (p.type === 'boolean' || p.anyOf?.some((a) => a.type === 'null')) {
      return field(name, p, select(name, [[null, 'edition default'], [true, 'on'], [false, 'off']], p.default ?? null));
    }
    return null;
  }

  const advanced = schema.AdvancedOptions.properties;
  const seats = h('fieldset', { class: 'seats-choice' }, h('legend', {}, 'Seats'));
  const form = h('form', { class: 'create', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'Create a game'),
    h('fieldset', {}, h('legend', {}, 'Rules'),
      Object.entries(props).filter(([n]) => n !== 'advanced').map(([n, p]) => control(n, p))),
    h('fieldset', { class: 'advanced' }, h('legend', {}, 'Advanced options (not for classic_2011)'),
      Object.entries(advanced).map(([n, p]) => control(n, p))),
    seats,
    h('fieldset', {}, h('legend', {}, 'Table'),
      h('div', { class: 'field' }, h('label', { for: 'turn-clock' }, 'Turn clock (seconds per decision; empty: none)'),
        h('input', { id: 'turn-clock', name: 'turn_clock', type: 'number', min: '1', max: '86400', placeholder: 'none' })),
      h('div', { class: 'field' }, h('label', { for: 'timeout-bot' }, 'When a clock runs out (or a player resigns), a bot plays'),
        h('select', { id: 'timeout-bot', name: 'bot_level' }, botOptions())),
      h('div', { class: 'field' }, h('label', { for: 'hand-over' }, 'Hand the seat to the bot after this many timeouts in a row (empty: never)'),
        h('input', { id: 'hand-over', name: 'hand_over_after', type: 'number', min: '1', max: '1000', value: '3' })),
      h('div', { class: 'field check' }, h('input', { type: 'checkbox', id: 'public', name: 'public', checked: true }),
        h('label', { for: 'public' }, 'Public: listed in the lobby, anyone may watch')),
      h('div', { class: 'field check' }, h('input', { type: 'checkbox', id: 'rated', name: 'rated' }),
        h('label', { for: 'rated' }, 'Rated: the result counts toward the players\' ratings')),
      h('div', { class: 'field' }, h('label', { for: 'spectator-delay' }, 'Spectator delay (events; 0: live)'),
        h('input', { id: 'spectator-delay', name: 'spectator_delay', type: 'number', min: '0', max: '1000', value: '0', 'aria-describedby': 'spectator-delay-help' }),
        h('small', { id: 'spectator-delay-help' }, 'Watchers see the game this many events behind the table while it runs, so nobody watching can tell a player the cards as they fall. The players see it live; once it is over everyone sees all of it.'))),
    h('button', { class: 'primary' }, 'Create the game'));

  const value = (name) => {
    const el = form.elements[name];
    return el.type === 'checkbox' ? el.checked : JSON.parse(el.value);
  };
  // Seat 1 is yours; each other seat is open for a person or a bot of a level.
  function drawSeats() {
    const n = value('players');
    const first = form.elements.first_player; // only seats the game has
    for (const o of first.options) o.disabled = typeof JSON.parse(o.value) === 'number' && JSON.parse(o.value) >= n;
    if (first.selectedOptions[0]?.disabled) first.value = JSON.stringify('random');
    replace(seats, h('legend', {}, 'Seats'), h('p', {}, 'Seat 1: you'),
      Array.from({ length: n - 1 }, (_, i) => h('div', { class: 'field' },
        h('label', { for: `seat-${i + 2}` }, `Seat ${i + 2}`),
        h('select', { id: `seat-${i + 2}`, name: `seat-${i + 2}` },
          h('option', { value: 'open' }, 'open for a person'),
          botOptions()))));
  }
  function drawAdvanced() {
    const classic = value('edition') === 'classic_2011';
    form.querySelectorAll('.advanced input, .advanced select').forEach((el) => { el.disabled = classic; });
  }
  form.elements.players.addEventListener('change', drawSeats);
  form.elements.edition.addEventListener('change', drawAdvanced);
  drawSeats();
  drawAdvanced();

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const ruleset = { advanced: {} };
    // Every option that has a control; "edition default" of a plain boolean is left out.
    const chosen = (names) => names.filter((n) => form.elements[n])
      .map((n) => [n, value(n)]).filter(([n, v]) => v !== null || props[n]?.type !== 'boolean' && advanced[n]?.type !== 'boolean');
    for (const [n, v] of chosen(Object.keys(props))) ruleset[n] = v;
    if (value('edition') !== 'classic_2011') for (const [n, v] of chosen(Object.keys(advanced))) ruleset.advanced[n] = v;
    const bots = [];
    for (let s = 2; s <= ruleset.players; s++) {
      const v = form.elements[`seat-${s}`].value;
      if (v !== 'open') bots.push({ level: v, seat: s - 1 });
    }
    const clock = form.elements.turn_clock.value, handOver = form.elements.hand_over_after.value;
    const body = {
      ruleset, bots, public: value('public'),
      spectator_delay: Number(form.elements.spectator_delay.value || 0),
      rated: value('rated'),
      turn_clock: clock ? Number(clock) : null,
      timeout_policy: { bot_level: form.elements.bot_level.value, hand_over_after: handOver ? Number(handOver) : null },
    };
    try {
      const game = await api.createGame(body);
      location.hash = `#/game/${game.game_id}`;
    } catch (err) { announce(err.message, 'error'); }
  });
  return form;
}
