// conn-line.js: an online room's connection line (connecting, reconnecting, replaced, gone, watching): drawn, and its button wired.
import { t } from './i18n.js';
import { $ } from './ui.js';
import { model } from './model.js';
import { errorText } from './texts.js';
import { connAction } from './online.js';

export function drawConn() {
  const el = $('conn');
  const btn = $('conn-action');
  if (model.mode !== 'online') { el.hidden = true; return; }
  btn.hidden = true;
  let text = '';
  let kind = 'warn';
  if (model.online.stopped === 'replaced') {
    text = t('conn.replaced');
    btn.hidden = false;
    btn.textContent = t('conn.takeback');
    btn.dataset.action = 'takeback';
  } else if (model.online.stopped) {
    text = model.online.stopped === 'no_room' ? t('conn.noroom') : errorText(model.online.stopped);
    btn.hidden = false;
    btn.textContent = t('conn.home');
    btn.dataset.action = 'home';
  } else if (model.online.conn === 'retry') {
    const left = Math.ceil((model.online.retryAt - Date.now()) / 1000);
    text = left >= 1 ? t('conn.reconnecting', { s: left }) : t('conn.reconnecting.now');
    if (model.online.retryIn >= 1500) {
      btn.hidden = false;
      btn.textContent = t('conn.retry');
      btn.dataset.action = 'retry';
    }
  } else if ((model.online.conn === 'connecting' || model.online.conn === 'joining') && model.online.everJoined) {
    text = t('conn.reconnecting.now');
  } else if (model.online.seat === 'spectator') {
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
  $('conn-action').hidden = !model.online.stopped;
  if (model.online.stopped) {
    $('conn-text').textContent = model.online.stopped === 'no_room' ? t('conn.noroom') : errorText(model.online.stopped);
    $('conn-action').textContent = t('conn.home');
    $('conn-action').dataset.action = 'home';
  } else if (model.online.conn === 'retry') {
    $('conn-text').textContent = t('conn.reconnecting.now');
  } else {
    $('conn-text').textContent = t('conn.connecting');
  }
}

export function wireConnLine() {
  $('conn-action').addEventListener('click', () => connAction($('conn-action').dataset.action));
}
