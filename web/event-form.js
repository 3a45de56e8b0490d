// event-form.js: the start page's "Club event" card: the form that creates
// an event (protocol/PROTOCOL.md, `event_create`): its name, game, format
// (Swiss with its rounds, or a round robin), the clock of its games (a
// room's choices, or none for real boards), a limit of players and whether
// rounds are paired by themselves. The event's page (event.js) is loaded
// only when it is needed.
// @ts-check
import { t } from './i18n.js';
import { $ } from './ui.js';
import { getKind, kindOf } from './kind.js';
import { setHidden, setText } from './dom.js';
import { cleanText } from './names.js';

// The form's choices as `event_create`'s fields, or a message key.
/** @returns {{fields: any} | {error: string, field: string}} */
export function eventFields(form) {
  const f = new FormData(form);
  const title = cleanText($('ev-form-name').value, 60);
  if (!title) return { error: 'event.form.error.name', field: 'ev-form-name' };
  const kind = kindOf(String(f.get('ev-kind')));
  const format = String(f.get('ev-format') || 'swiss');
  const fields = { title, kind, format, rounds: null, clock: null, max_players: null, auto: $('ev-form-auto').checked };
  if (format === 'swiss') {
    const n = Number($('ev-form-rounds').value);
    if (!Number.isInteger(n) || n < 1 || n > 32) return { error: 'event.form.error.rounds', field: 'ev-form-rounds' };
    fields.rounds = n;
  }
  const c = String(f.get('ev-clock') || 'none');
  if (c.startsWith('days:')) fields.clock = { days: Number(c.slice(5)) };
  else if (c === 'custom') {
    const m = Number($('ev-form-min').value), inc = Number($('ev-form-inc').value);
    if (!Number.isInteger(m) || m < 1 || m > 180) return { error: 'clock.error.initial', field: 'ev-form-min' };
    if (!Number.isInteger(inc) || inc < 0 || inc > 180) return { error: 'clock.error.increment', field: 'ev-form-inc' };
    fields.clock = { initial: m * 60, increment: inc };
  } else if (c !== 'none') {
    const [m, i] = c.split('+').map(Number);
    fields.clock = { initial: m * 60, increment: i };
  }
  const max = $('ev-form-max').value;
  if (max !== '') {
    const n = Number(max);
    if (!Number.isInteger(n) || n < 2 || n > 256) return { error: 'event.form.error.max', field: 'ev-form-max' };
    fields.max_players = n;
  }
  return { fields };
}

// The start page shown: the form ready again; why (a refusal of the
// server) said under it.
export function showEventForm(why) {
  $('ev-form-create').disabled = false;
  setText($('ev-form-error'), why || '');
  setHidden($('ev-form-error'), !why);
  if (why) $('event-form').scrollIntoView({ block: 'center' });
  const kind = getKind();
  for (const r of /** @type {NodeListOf<HTMLInputElement>} */ ($('event-form').querySelectorAll('input[name="ev-kind"]'))) {
    if (!$('event-form').dataset.kindTouched) r.checked = r.value === kind;
  }
}

// Wires the form once; backToStart(why): the start page with why said
// under the form (start.js's).
export function wireEventForm({ backToStart }) {
  const form = $('event-form');
  const sync = () => {
    const f = new FormData(form);
    const swiss = f.get('ev-format') === 'swiss';
    setHidden($('ev-form-rounds-field'), !swiss);
    $('ev-form-rounds').disabled = !swiss;
    const custom = f.get('ev-clock') === 'custom';
    setHidden($('ev-form-custom'), !custom);
    for (const el of $('ev-form-custom').querySelectorAll('input')) el.disabled = !custom;
  };
  form.addEventListener('change', (e) => {
    if (e.target.name === 'ev-kind') form.dataset.kindTouched = '1';
    sync();
  });
  sync();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const got = eventFields(form);
    if ('error' in got) {
      setText($('ev-form-error'), t(got.error));
      setHidden($('ev-form-error'), false);
      $(got.field).focus();
      return;
    }
    setHidden($('ev-form-error'), true);
    $('ev-form-create').disabled = true;
    import('./event.js').then((m) => m.createEvent(got.fields, (why) => backToStart(why)),
      () => { $('ev-form-create').disabled = false; });
  });
}
