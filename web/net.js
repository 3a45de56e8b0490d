// net.js: one WebSocket to the server (subprotocol oware.v1), reopened with
// backoff when it drops. The caller says what to send on each open.

// @ts-check
export const SUBPROTOCOL = 'oware.v1';
// The close code the server sends a connection whose seat another one took
// (protocol/PROTOCOL.md, "Closing"): the page does not reconnect by itself.
export const CLOSE_REPLACED = 4001;
// The room moved to another server (several servers on one database): the
// page reconnects at once, and the routing finds the room's server.
export const CLOSE_MOVED = 4002;
// The waits before each reconnection attempt, the last repeated, each
// with a jitter of ±25% (pages dropped together do not all come back in
// the same instant): capped at 3 s (at most 3.75 s), so a page is back
// well inside the 15 s of grace a server restart gives the side to move
// (protocol/PROTOCOL.md, "Server restarts"), and at once when the page regains the
// network or the focus (online.js, nudge()).
const DELAYS = [250, 500, 1000, 2000, 3000];
// These actions always get a message back (a state, the chat line, or an
// error; protocol/PROTOCOL.md, "Closing"). When one gets no message at all
// within STALL_MS, the connection is stalled (its server hangs, or the
// path broke while the socket stays open): the page closes it and
// reconnects, as after a drop (docs/cluster.md, and server/CLUSTER.md, "A hung server"). A commit
// takes milliseconds; the margin is for slow phone networks.
export const STALL_MS = 10000;
const ANSWERED = new Set(['move', 'resign', 'draw', 'abort', 'rematch', 'claim', 'chat']);

// The ws URL next to the page: ws://host/ws at the root, wss://host/prefix/ws
// behind a proxy; room (optional) goes in the query for routing.
export function socketUrl(room) {
  const u = new URL('ws', window.location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.search = '';
  u.hash = '';
  if (room) u.searchParams.set('room', room);
  return u.href;
}

export class Connection {
  // handlers: hello() -> first message object for a fresh socket,
  // message(obj), status({state, retryIn}), closed(code) -> false to stop
  // reconnecting. url() -> the URL to open. stallMs (optional): the wait
  // for an answer before a stalled socket is given up (STALL_MS).
  constructor(handlers) {
    this.h = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.state = 'idle';
    this.stall = null;  // the watch of an unanswered action
  }

  open() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.timer = null;
    this._unwatch();
    this._status('connecting');
    let ws;
    try {
      ws = new WebSocket(this.h.url(), SUBPROTOCOL);
    } catch (e) {
      this._retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this._status('open');
      this.send(this.h.hello());
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws) return;
      this._unwatch();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && typeof msg.type === 'string') this.h.message(msg);
    });
    ws.addEventListener('close', (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this._unwatch();
      const again = this.h.closed(ev.code) !== false;
      if (again && !this.stopped && ev.code === CLOSE_MOVED) this.open();
      else if (again && !this.stopped) this._retry();
      else this._status('stopped');
    });
    // An error is always followed by close; nothing to do here.
  }

  // A joined room answered: the next drop starts the backoff afresh.
  joined() { this.attempt = 0; }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      if (ANSWERED.has(obj.type) && !this.stall) {
        const ws = this.ws;
        this.stall = setTimeout(() => this._stalled(ws), this.h.stallMs || STALL_MS);
      }
      return true;
    }
    return false;
  }

  get connected() { return this.state === 'open'; }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this._unwatch();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
    this._status('stopped');
  }

  // Reconnect now (e.g. the page became visible or the network came back).
  nudge() {
    if (this.stopped || this.ws) return;
    this.open();
  }

  _unwatch() {
    clearTimeout(this.stall);
    this.stall = null;
  }

  // An action got no message back in time: this socket is given up at
  // once (its close handshake would wait for the stalled server) and a
  // new one follows, as after a drop.
  _stalled(ws) {
    this.stall = null;
    if (this.ws !== ws) return;
    this.ws = null;
    try { ws.close(); } catch { /* closing already */ }
    const again = this.h.closed(1006) !== false;
    if (again && !this.stopped) this._retry();
    else this._status('stopped');
  }

  _retry() {
    const base = DELAYS[Math.min(this.attempt, DELAYS.length - 1)];
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt++;
    this._status('retry', delay);
    this.timer = setTimeout(() => this.open(), delay);
  }

  _status(state, retryIn) {
    this.state = state;
    this.h.status({ state, retryIn: retryIn || 0 });
  }
}
