// event-form.js: the start page's "Club event" card: the form that creates
// an event (protocol/PROTOCOL.md, `event_create`): its name, game, format
// (Swiss with its rounds, or a round robin), the clock of its games (a
// room's choices, or none for real boards), a limit of players, whether
// rounds are paired by themselves and the FIDE rules followed. The event's page (event.js) is loaded
// only when it is needed.
// @ts-check
import { tIn } from './i18n.js';
import { $ } from './ui.js';
import { setHidden, setText } from './dom.js';

// The form's choices as they stand (event.js's eventFields checks them).
function choices(form) {
  const f = new FormData(form);
  return {
    title: $('ev-form-name').value, kind: String(f.get('ev-kind')), format: String(f.get('ev-format')),
    rounds: $('ev-form-rounds').value, clock: String(f.get('ev-clock')), min: $('ev-form-min').value,
    inc: $('ev-form-inc').value, max: $('ev-form-max').value, auto: $('ev-form-auto').checked,
    rules2017: $('ev-form-rules2017').checked,
  };
}

// The start page shown: the form ready again, on the game the start page
// offers (kind) until one is chosen here; why (a refusal of the server)
// said under it.
/** @param {string | null} why @param {string} kind */
export function showEventForm(why, kind) {
  $('ev-form-create').disabled = false;
  setText($('ev-form-error'), why || '');
  setHidden($('ev-form-error'), !why);
  if (why) $('event-form').scrollIntoView({ block: 'center' });
  for (const r of /** @type {NodeListOf<HTMLInputElement>} */ ($('event-form').querySelectorAll('input[name="ev-kind"]'))) {
    if (!$('event-form').dataset.kindTouched) r.checked = r.value === kind;
  }
}

// Without the network no event can be created: said, and the button off
// (start.js's drawNetwork, as for a room).
export function drawEventNetwork(off) {
  setHidden($('ev-form-offline'), !off);
  $('ev-form-create').disabled = off;
}

// The field of each choice (where a refused one takes the focus).
const FIELDS = { title: 'ev-form-name', rounds: 'ev-form-rounds', min: 'ev-form-min', inc: 'ev-form-inc', max: 'ev-form-max' };

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
    const raw = choices(form);
    $('ev-form-create').disabled = true;
    import('./event.js').then((m) => {
      const got = m.eventFields(raw);
      if ('error' in got) {
        $('ev-form-create').disabled = false;
        setText($('ev-form-error'), tIn(raw.kind, got.error));
        setHidden($('ev-form-error'), false);
        $(FIELDS[got.field]).focus();
        return;
      }
      setHidden($('ev-form-error'), true);
      m.createEvent(got.fields, (why) => backToStart(why));
    }, () => { $('ev-form-create').disabled = false; });
  });
}
