// conn-line.js: an online room's connection line (connecting, reconnecting, replaced, gone, watching): drawn, and its button wired.
// @ts-check
import { t } from './i18n.js';
import { $ } from './ui.js';
import { errorText } from './texts.js';
import { connAction } from './online.js';
import { setData, setHidden, setText } from './dom.js';

/** @param {import('./model.js').GameState} model the room's state */
export function drawConn(model) {
  const el = $('conn');
  const btn = $('conn-action');
  if (model.mode !== 'online') { setHidden(el, true); return; }
  let action = null;  // the button's: 'takeback', 'home', 'retry'
  let text = '';
  let kind = 'warn';
  if (model.online.stopped === 'replaced') {
    text = t('conn.replaced');
    action = 'takeback';
  } else if (model.online.netDown && !model.online.stopped) {
    text = t('conn.offline');
  } else if (model.online.stopped) {
    text = model.online.stopped === 'no_room' ? t('conn.noroom') : errorText(model.online.stopped);
    action = 'home';
  } else if (model.online.conn === 'retry') {
    const left = Math.ceil((model.online.retryAt - Date.now()) / 1000);
    text = left >= 1 ? t('conn.reconnecting', { s: left }) : t('conn.reconnecting.now');
    if (model.online.retryIn >= 1500) {
      action = 'retry';
    }
  } else if ((model.online.conn === 'connecting' || model.online.conn === 'joining') && model.online.everJoined) {
    text = t('conn.reconnecting.now');
  } else if (model.online.seat === 'spectator') {
    text = t('role.spectator');
    kind = 'info';
    const n = model.state ? model.state.spectators : 0;
    if (n > 1) text += ` · ${t('seat.spectators', { n })}`;
  }
  // The room shown is this browser's copy: said with the line.
  if (model.online.saved && text) text += ` ${t('conn.saved')}`;
  setHidden(btn, !action);
  if (action) {
    setText(btn, t(`conn.${action}`));
    setData(btn, 'action', action);
  }
  setHidden(el, !text);
  setData(el, 'kind', kind);
  setText($('conn-text'), text);
}

// Before the first state: only the connection line.
/** @param {import('./model.js').GameState} model the room's state */
export function drawConnBare(model) {
  const el = $('conn');
  setHidden(el, false);
  setData(el, 'kind', 'info');
  setHidden($('conn-action'), !model.online.stopped);
  if (model.online.netDown && !model.online.stopped) {
    setData(el, 'kind', 'warn');
    setText($('conn-text'), t('conn.offline'));
  } else if (model.online.stopped) {
    setText($('conn-text'), model.online.stopped === 'no_room' ? t('conn.noroom') : errorText(model.online.stopped));
    setText($('conn-action'), t('conn.home'));
    setData($('conn-action'), 'action', 'home');
  } else if (model.online.conn === 'retry') {
    setText($('conn-text'), t('conn.reconnecting.now'));
  } else {
    setText($('conn-text'), t('conn.connecting'));
  }
}

export function wireConnLine() {
  $('conn-action').addEventListener('click', () => connAction($('conn-action').dataset.action));
}
