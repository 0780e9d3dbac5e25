// The custom game (#/custom): every rule option, in plain words, with the seats (people or
// bots), a turn clock, public or private and the watchers' delay. The options and their
// defaults come from GET /v1/rulesets; their words are the page's own (i18n.js), so an option
// the page does not know yet still shows, by its name.
import { api } from './api.js';
import { announce, h, replace } from './dom.js';
import { t } from './i18n.js';
import { editionFor, endModeFor } from './play.js';
import { current } from './store.js';

const words = (s) => String(s).replaceAll('_', ' ');
const known = (key) => t(key) !== key;
const label = (name) => (known(`opt.${name}`) ? t(`opt.${name}`) : words(name).replace(/^./, (c) => c.toUpperCase()));
// The value's words: `end.quick`, `edition.de_2024`, `tie.extra_round`… or the value itself.
const PREFIX = { edition: 'edition', end_mode: 'end', tie_policy: 'tie', later_rounds_start: 'later' };
const valueWords = (name, v) => (PREFIX[name] && known(`${PREFIX[name]}.${v}`) ? t(`${PREFIX[name]}.${v}`) : words(v));

export async function mount(root) {
  current.screen = 'custom';
  current.state = null;
  replace(root, h('section', { class: 'custom' }, createForm(await api.rulesets())));
}

export function createForm(catalogue) {
  const botOptions = () => catalogue.bot_levels.map(({ level, description }) =>
    h('option', { value: level, title: description }, t('custom.bot', { level })));
  const schema = catalogue.ruleset_schema.$defs;
  const props = schema.RuleSet.properties;
  const enumOf = (p) => schema[p.$ref?.split('/').at(-1)]?.enum;
  const hint = (name) => (known(`hint.${name}`) ? h('small', { id: `rs-${name}-help` }, t(`hint.${name}`)) : null);
  const described = (name) => (known(`hint.${name}`) ? `rs-${name}-help` : null);
  const field = (name, control) => h('div', { class: `field f-${name}` },
    h('label', { for: `rs-${name}` }, label(name)), control, hint(name));
  const select = (name, options, value) => h('select', { id: `rs-${name}`, name, 'aria-describedby': described(name) },
    options.map(([v, text]) => h('option', { value: JSON.stringify(v), selected: v === value }, text)));
  const check = (name, p) => h('div', { class: `field check f-${name}` },
    h('input', { type: 'checkbox', id: `rs-${name}`, name, checked: p.default, 'aria-describedby': described(name) }),
    h('label', { for: `rs-${name}` }, label(name)), hint(name));

  // One control per rule option: an enum is a select, a boolean a checkbox, "on, off or as
  // the edition has it" a three-way select.
  function control(name, p) {
    if (p.readOnly) return null; // the server sets it (rules_version)
    if (name === 'players') return field(name, select(name, [2, 3, 4, 5, 6].map((n) => [n, t('start.playersN', { n })]), 4));
    if (name === 'first_player') return field(name, select(name, [['random', t('custom.random')], ...[0, 1, 2, 3, 4, 5].map((n) => [n, t('custom.firstSeat', { n: n + 1 })])], 'random'));
    if (name === 'end_mode') return field(name, select(name, enumOf(p).map((v) => [v, valueWords(name, v)]), endModeFor(4)));
    if (name === 'edition') return field(name, select(name, enumOf(p).map((v) => [v, valueWords(name, v)]), editionFor()));
    if (enumOf(p)) return field(name, select(name, enumOf(p).map((v) => [v, valueWords(name, v)]), p.default));
    if (p.type === 'boolean' && p.default !== undefined) return check(name, p);
    if (p.type === 'boolean' || p.anyOf?.some((a) => a.type === 'null')) {
      return field(name, select(name, [[null, t('custom.default')], [true, t('custom.on')], [false, t('custom.off')]], p.default ?? null));
    }
    return null;
  }

  const advanced = schema.AdvancedOptions.properties;
  const seats = h('fieldset', { class: 'seats-choice' }, h('legend', {}, t('custom.seats')));
  const form = h('form', { class: 'create', 'aria-labelledby': 'create-title' },
    h('h1', { id: 'create-title' }, t('custom.title')),
    h('fieldset', {}, h('legend', {}, t('custom.rules')),
      Object.entries(props).filter(([n]) => n !== 'advanced').map(([n, p]) => control(n, p))),
    h('fieldset', { class: 'advanced' }, h('legend', {}, t('custom.extras')),
      Object.entries(advanced).map(([n, p]) => control(n, p))),
    seats,
    h('fieldset', {}, h('legend', {}, t('custom.table')),
      h('div', { class: 'field' }, h('label', { for: 'turn-clock' }, t('custom.clock')),
        h('input', { id: 'turn-clock', name: 'turn_clock', type: 'number', min: '1', max: '86400', 'aria-describedby': 'turn-clock-help' }),
        h('small', { id: 'turn-clock-help' }, t('custom.clockHint'))),
      h('div', { class: 'field' }, h('label', { for: 'timeout-bot' }, t('custom.timeoutBot')),
        h('select', { id: 'timeout-bot', name: 'bot_level' }, botOptions())),
      h('div', { class: 'field' }, h('label', { for: 'hand-over' }, t('custom.handOver')),
        h('input', { id: 'hand-over', name: 'hand_over_after', type: 'number', min: '1', max: '1000', value: '3' })),
      h('div', { class: 'field check' }, h('input', { type: 'checkbox', id: 'public', name: 'public', checked: true }),
        h('label', { for: 'public' }, t('custom.public'))),
      h('div', { class: 'field check' }, h('input', { type: 'checkbox', id: 'rated', name: 'rated' }),
        h('label', { for: 'rated' }, t('custom.rated'))),
      h('div', { class: 'field' }, h('label', { for: 'spectator-delay' }, t('custom.delay')),
        h('input', { id: 'spectator-delay', name: 'spectator_delay', type: 'number', min: '0', max: '1000', value: '0', 'aria-describedby': 'spectator-delay-help' }),
        h('small', { id: 'spectator-delay-help' }, t('custom.delayHint')))),
    h('button', { class: 'primary' }, t('custom.create')));

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
    replace(seats, h('legend', {}, t('custom.seats')), h('p', {}, t('custom.you')),
      Array.from({ length: n - 1 }, (_, i) => h('div', { class: 'field' },
        h('label', { for: `seat-${i + 2}` }, t('custom.seat', { n: i + 2 })),
        h('select', { id: `seat-${i + 2}`, name: `seat-${i + 2}` },
          h('option', { value: 'open' }, t('custom.openSeat')),
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
    // Every option that has a control; "as the edition has it" of a plain boolean is left out.
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
