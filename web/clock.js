// clock.js: the room's clocks as the server keeps them (PROTOCOL.md "Clocks"): counted down locally between states, drawn beside the player bars, the time control's wording, the start page's choice, the low-time warning and its sound.
// @ts-check
import { t, fmtDate } from './i18n.js';
import { $, soundMuted } from './ui.js';
import { hooks } from './hooks.js';
import { sideSentence } from './texts.js';
import { setAttr, setHidden, setText } from './dom.js';

const LOW_MS = 10000;       // real time: tenths and the warning below this
const LOW_DAY_MS = 3600000; // correspondence: the warning below an hour

let timer = null;
let audio = null;

// ---- what the clocks show ----

// The clock of the state shown, with each side's time now: the running
// side counts down from when the state arrived (after any grace).
/** @param {import('./model.js').GameState | null} model */
export function clockNow(model) {
  const st = model && model.state;
  const c = st && st.clock;
  if (!c) return null;
  const left = { south: c.south, north: c.north };
  // While the room's connection is lost the clocks stand where it was last
  // heard: the server's time goes on, but this page cannot know whose, and
  // counting on would only jump back at the reconnection.
  const on = model.mode === 'online';
  const frozen = on && model.online.conn !== 'open';
  const now = frozen ? Math.max(model.online.clockAt || 0, model.online.lostAt || 0) : performance.now();
  if (c.running && !st.game.over) {
    const since = now - (model.online.clockAt || 0) - (c.grace || 0);
    if (since > 0) left[c.running] = Math.max(0, c[c.running] - since);
  }
  return { ...c, left, frozen };
}

// "4:05", "1:02:03", "9.3" (tenths under 10 s of real time); days for
// correspondence ("2 d 4 h", "3 h 12 min", then minutes and seconds).
export function formatClock(ms, kind) {
  ms = Math.max(0, ms);
  if (kind === 'correspondence' && ms >= 3600000) {
    const d = Math.floor(ms / 86400000), h = Math.floor((ms % 86400000) / 3600000);
    const m = Math.floor((ms % 3600000) / 60000);
    return d ? t('clock.dh', { d, h }) : t('clock.hm', { h, m });
  }
  if (kind !== 'correspondence' && ms < LOW_MS) {
    // Rounded down: 0.0 only when the time is really up.
    return (Math.floor(ms / 100) / 10).toFixed(1);
  }
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

// The deadline of a correspondence move as a date and time of this
// browser's locale.
export function deadlineText(msLeft) {
  const at = new Date(Date.now() + msLeft);
  return fmtDate(at, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

const secs = (ms) => Math.round(ms / 1000);
function mins(ms) {
  const s = secs(ms);
  return s % 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` : String(s / 60);
}

// The time control in words: "5+3", "Time odds: South 3, North 10, +2",
// "3 days per move"; '' without a clock.
export function controlText(c) {
  if (!c) return '';
  if (c.kind === 'correspondence') return t(c.days === 1 ? 'clock.control.day' : 'clock.control.days', { n: c.days });
  const inc = secs(c.increment);
  if (c.initial.south !== c.initial.north) {
    return t('clock.control.odds', { south: mins(c.initial.south), north: mins(c.initial.north), inc });
  }
  return t('clock.control.realtime', { min: mins(c.initial.south), inc });
}

// ---- drawing ----

// The clock of side into the player bar el (hidden without a clock).
/** @param {import('./model.js').GameState} model the state shown */
export function drawPlayerClock(el, side, model) {
  const span = el.querySelector('.player-clock');
  const c = clockNow(model);
  setHidden(span, !c);
  el.classList.toggle('has-clock', !!c);
  if (!c) return;
  const ms = c.left[side];
  const running = c.running === side && !model.state.game.over;
  const low = running && ms < (c.kind === 'correspondence' ? LOW_DAY_MS : LOW_MS);
  setText(span, formatClock(ms, c.kind));
  span.classList.toggle('running', running);
  span.classList.toggle('low', low);
  span.classList.toggle('flagged', ms <= 0);
  // Standing while the connection is lost: marked, and said.
  const paused = running && c.frozen;
  span.classList.toggle('paused', paused);
  span.title = paused ? t('clock.paused') : c.kind === 'correspondence' && running ? t('clock.deadline', { at: deadlineText(ms) }) : '';
  setAttr(span, 'aria-label', t(paused ? 'clock.label.paused' : running ? 'clock.label.running' : 'clock.label', { time: span.textContent }));
}

// The line over the table: the time control and the correspondence
// deadline; not while the share card, which says the time control, shows.
/**
 * @param {import('./model.js').GameState} model the state shown
 * @param {boolean} [sharing] the share card shows
 */
export function drawClockLine(model, sharing = false) {
  const c = clockNow(model);
  const line = $('clock-line');
  setHidden(line, !c || sharing);
  if (!c) return;
  let text = controlText(c);
  if (c.kind === 'correspondence' && c.running && !model.state.game.over) {
    text += ' · ' + sideSentence('clock.deadline.side', c.running, { at: deadlineText(c.left[c.running]) }, { kind: model.kind, names: model.state.names });
  }
  setText($('clock-control'), text);
}

// Redraws the clocks of the room's state model (draw(model)) ten times a
// second while one runs (once a second for correspondence), and warns the
// player whose time runs low: a beep, and said(model) at each tick (the
// low time said to screen readers at set points: ear.js's lowTime).
/**
 * @param {import('./model.js').GameState | null} model  null: the room closed, the ticks stop
 * @param {(model: import('./model.js').GameState) => void} draw
 * @param {(model: import('./model.js').GameState) => void} [said]
 */
export function scheduleClock(model, draw, said) {
  clearInterval(timer);
  const c = model && model.state && model.state.clock;
  if (!c || !c.running || model.state.game.over) return;
  const every = c.kind === 'correspondence' ? 1000 : 100;
  timer = setInterval(() => {
    if (!model || !model.state || !model.state.clock) { clearInterval(timer); return; }
    draw(model);
    warn(model, said);
  }, every);
}

// ---- the low-time warning ----

// The game_number:ply already warned about: model.online.warned.
/** @param {import('./model.js').GameState} model @param {(model: import('./model.js').GameState) => void} [said] */
function warn(model, said) {
  const c = clockNow(model);
  const me = model.online.seat;
  if (said) said(model);
  if (!c || c.kind !== 'realtime' || c.running !== me || c.left[me] >= LOW_MS || c.left[me] <= 0) return;
  const key = `${model.state.game_number}:${model.state.moves.length}`;
  if (model.online.warned === key) return;
  model.online.warned = key;
  beep();
}

// A short beep (Web Audio), unless the page's sounds are muted (the one
// *Sound* switch, alerts.js; a sound, not a draw: it reads what is kept).
export function beep() {
  if (soundMuted()) return;
  try {
    audio = audio || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.18);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.2);
    hooks.beeps++;  // counted for the tests (hooks.js)
  } catch (e) { /* no audio here */ }
}

// ---- the start page ----

// The clock chosen on the start page, as create's `clock` (null: none).
export function chosenClock(form) {
  const v = String(new FormData(form).get('clock') || 'none');
  if (v === 'none') return null;
  if (v.startsWith('days:')) return { days: Number(v.slice(5)) };
  if (v === 'custom') {
    // Minutes and seconds (an empty seconds field is 0).
    const time = (m, s) => Math.round(Number(m) * 60 + Number(s || 0));
    const initial = time($('clock-min').value, $('clock-sec').value);
    const inc = Number($('clock-inc').value);
    const oddsGiven = $('clock-odds').value !== '' || $('clock-odds-sec').value !== '';
    const odds = oddsGiven ? time($('clock-odds').value || 0, $('clock-odds-sec').value) : null;
    if (odds !== null && odds !== initial) {
      // The creator's side gets the first time; South and North as they fall.
      return { south: initial, north: odds, increment: Math.round(inc) };
    }
    return { initial, increment: Math.round(inc) };
  }
  const [m, i] = v.split('+').map(Number);
  return { initial: m * 60, increment: i };
}

// Checks the custom values: a message key, or null when they are fine.
export function clockError(clock) {
  if (!clock || clock.days) return null;
  const times = clock.initial !== undefined ? [clock.initial] : [clock.south, clock.north];
  if (times.some((s) => !Number.isFinite(s) || s < 10 || s > 10800)) return 'clock.error.initial';
  if (!Number.isInteger(clock.increment) || clock.increment < 0 || clock.increment > 180) return 'clock.error.increment';
  return null;
}

// The clock's part of the create form (start.js's): the custom fields show
// when chosen, and only then count (a hidden field the browser finds out of
// its limits would stop the form with nothing shown).
export function wireClockForm(form) {
  const sync = () => {
    const custom = new FormData(form).get('clock') === 'custom';
    setHidden($('clock-custom'), !custom);
    for (const el of $('clock-custom').querySelectorAll('input')) el.disabled = !custom;
  };
  form.addEventListener('change', sync);
  sync();
}
