// fakes.mjs: what the node tests of the controllers hand them in place of
// the page: a Connection that the test opens, drops and feeds, the
// effects that record what they were asked, and the engines loaded.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, Game } from '../../web/engine.js';
import { loadTogyz, Game as TogyzGame } from '../../web/togyz.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

export async function loadEngines() {
  await loadEngine(fs.readFileSync(path.join(WEB, 'engine.wasm')));
  await loadTogyz(fs.readFileSync(path.join(WEB, 'togyz.wasm')));
}

// net.js's Connection as the room uses it; the test moves it: up() (the
// socket opens and says hello), drop() (it closes: a retry follows),
// hear(msg) (a message from the server).
export class FakeConn {
  static made = [];
  constructor(h) {
    this.h = h;
    this.sent = [];
    this.state = 'idle';
    this.ws = null;
    this.nudged = 0;
    FakeConn.made.push(this);
  }

  static get last() { return FakeConn.made[FakeConn.made.length - 1]; }
  open() { this._status('connecting'); }
  up() { this.ws = {}; this._status('open'); this.send(this.h.hello()); }
  drop(code = 1006) {
    this.ws = null;
    if (this.h.closed(code) !== false) this._status('retry', 250);
    else this._status('stopped');
  }

  hear(msg) { this.h.message(msg); }
  send(obj) {
    if (this.state !== 'open') return false;
    this.sent.push(obj);
    return true;
  }

  get connected() { return this.state === 'open'; }
  joined() {}
  stop() { this.ws = null; this._status('stopped'); }
  nudge() { this.nudged++; }
  _status(state, retryIn = 0) { this.state = state; this.h.status({ state, retryIn }); }
}

// The effects a controller asks of the page, recorded.
export function fakeEffects(extra = {}) {
  const said = { toasts: [], announced: [], stored: new Map(), animated: 0, intoView: 0, confirms: [], finished: 0 };
  const fx = {
    toast: (text) => said.toasts.push(text),
    announce: (text) => said.announced.push(text),
    confirm: (text) => { said.confirms.push(text); return Promise.resolve(extra.confirm !== false); },
    store: (k, v) => { if (v === null) said.stored.delete(k); else said.stored.set(k, v); },
    load: (k) => (said.stored.has(k) ? said.stored.get(k) : null),
    show() {},
    words() {},
    clock() {},
    animate: () => { said.animated++; },
    boardIntoView: () => { said.intoView++; },
    stopStale() {},
    chatRestore: (text) => { said.restored = text; },
    remember: (name) => { said.remembered = name; },
    chatEvent() {},
    stateEvents() {},
    roomUrl: (room) => { said.url = room; },
    leave() {},
    home: (why, refusedName) => { said.home = why; said.refusedName = refusedName; },
    myName: () => null,
    finishMove: () => { said.finished++; },
    settled: () => Promise.resolve(),
  };
  return { fx, said };
}

// A room's `state` message as the server sends it (PROTOCOL.md), for an
// Oware game of moves; fields override.
export function roomState(moves = [], fields = {}, kind = 'oware') {
  const G = kind === 'togyz' ? TogyzGame : Game;
  const g = G.start();
  let last = null;
  moves.forEach((m) => { last = g.play(m); });
  const seat = { taken: true, connected: true };
  return {
    type: 'state', version: 1, game_number: 1, moves, last, game: g.state(),
    seats: { south: seat, north: seat }, draw_offer: null, rematch_offer: null, claim_in: null, start: null,
    ...fields,
  };
}
