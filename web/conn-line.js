// conn-line.js: draws an online room's connection line (connecting, reconnecting, replaced, gone, watching).
import { t } from './i18n.js';
import { $ } from './ui.js';
import { model } from './model.js';
import { errorText } from './texts.js';

export function drawConn() {
  const el = $('conn');
  const btn = $('conn-action');
  if (model.mode !== 'online') { el.hidden = true; return; }
  btn.hidden = true;
  let text = '';
  let kind = 'warn';
  if (model.stopped === 'replaced') {
    text = t('conn.replaced');
    btn.hidden = false;
    btn.textContent = t('conn.takeback');
    btn.dataset.action = 'takeback';
  } else if (model.stopped) {
    text = model.stopped === 'no_room' ? t('conn.noroom') : errorText(model.stopped);
    btn.hidden = false;
    btn.textContent = t('conn.home');
    btn.dataset.action = 'home';
  } else if (model.conn === 'retry') {
    const left = Math.ceil((model.retryAt - Date.now()) / 1000);
    text = left >= 1 ? t('conn.reconnecting', { s: left }) : t('conn.reconnecting.now');
    if (model.retryIn >= 1500) {
      btn.hidden = false;
      btn.textContent = t('conn.retry');
      btn.dataset.action = 'retry';
    }
  } else if ((model.conn === 'connecting' || model.conn === 'joining') && model.everJoined) {
    text = t('conn.reconnecting.now');
  } else if (model.seat === 'spectator') {
    text = t('role.spectator');
    kind = 'info';
    const n = model.state ? model.state.spectators : 0;
    if (n > 1) text += ` · ${t('seat.spectators', { n })}`;
  }
  el.hidden = !text;
  el.dataset.kind = kind;
  $('conn-text').textContent = text;
}

// Before the first state: only the connection line.
export function drawConnBare() {
  const el = $('conn');
  el.hidden = false;
  el.dataset.kind = 'info';
  $('conn-action').hidden = !model.stopped;
  if (model.stopped) {
    $('conn-text').textContent = model.stopped === 'no_room' ? t('conn.noroom') : errorText(model.stopped);
    $('conn-action').textContent = t('conn.home');
    $('conn-action').dataset.action = 'home';
  } else if (model.conn === 'retry') {
    $('conn-text').textContent = t('conn.reconnecting.now');
  } else {
    $('conn-text').textContent = t('conn.connecting');
  }
}
