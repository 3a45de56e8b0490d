// board.js: draws the board (pits, seeds, counts, letters, stores), its
// highlights and the sowing animation. Knows nothing of rooms or sockets.
// @ts-check
import { wordsIn, holeName } from './i18n.js';
import { kindOf, pitIds, pitLabel, rowOf } from './kind.js';
import { kindRec } from './kinds.js';
import { setText, setAttr, setData } from './dom.js';

const MAX_DOTS = 24;  // seeds drawn in a pit; the count is always written

// Seed positions: a sunflower spiral, the same for every pit, so a pit that
// gains a seed keeps the others where they were.
// Twelve seeds fill the pit; more lie on top of them, a little shifted.
const DOTS = Array.from({ length: MAX_DOTS }, (_, i) => {
  const k = i % 12, layer = Math.floor(i / 12);
  const r = 0.21 * Math.sqrt(k + 0.35) * (layer ? 0.8 : 1);
  const a = k * 2.39996 + 0.6 + layer * 1.2;
  return { x: 50 + 50 * r * Math.cos(a), y: 50 + 50 * r * Math.sin(a), tone: (i * 7) % 5 };
});

function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Board {
  // root: the board element; stores: {south: el, north: el} (may be absent).
  // tapPreview(): whether a tap previews first (then a second tap plays).
  // kind: 'oware' (two rows of six) or 'togyz' (two rows of nine, tuzdyks).
  /**
   * @param {HTMLElement} root
   * @param {{south?: Element, north?: Element}} stores
   * @param {{onPlay?: (pit: string) => void, onPreview?: (pit: string | null) => void, tapPreview?: () => boolean}} [handlers]
   * @param {string} [kind]
   */
  constructor(root, stores, { onPlay, onPreview, tapPreview } = {}, kind = 'oware') {
    this.root = root;
    this.stores = stores;
    this.onPlay = onPlay || (() => {});
    this.onPreview = onPreview || (() => {});
    this.tapPreview = tapPreview || (() => false);
    this.armed = null;          // the pit a first tap previewed: a second tap plays it
    this.pointer = null;        // the kind of pointer pressed last ('touch', 'mouse', …)
    this.me = null;             // the viewer's side: their pits are labelled "yours"
    this.view = 'south';        // the side nearest the player
    this.legal = new Set();
    this.captured = { south: 0, north: 0 };
    this.tuzdyk = { south: null, north: null };  // Togyz: each side's tuzdyk pit name
    this.turn = 'south';        // the side to move in the position shown
    this.over = null;           // the game shown is over: {winner, reason}
    this.last = null;           // the last move marked (the engine's move info)
    this.anim = null;           // {timer, resolve, done} of a running animation (done: its promise)
    this.rows = { top: root.querySelector('.row-top'), bottom: root.querySelector('.row-bottom') };
    this.kind = null;
    this.marksTuzdyk = false;
    this.setKind(kind);
  }

  // Builds the pits of kind ('oware' or 'togyz') unless they are there.
  setKind(kind) {
    kind = kindOf(kind);
    if (kind === this.kind) return;
    this.finish();
    this.kind = kind;
    this.ids = pitIds(kind);
    this.row = rowOf(kind);
    this.marksTuzdyk = kindRec(kind).tuzdyk;  // Togyz: tuzdyks marked, sown into their owner's store
    this.counts = new Array(this.ids.length).fill(0);
    this.tuzdyk = { south: null, north: null };
    this.legal = new Set();
    this.armed = null;
    this.pits = Array.from(this.ids, (_, i) => this._makePit(i));
    this.root.dataset.kind = kind;
    this._layout();
  }

  _makePit(i) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'pit';
    const ids = this.ids;
    b.dataset.pit = ids[i];
    b.dataset.side = i < this.row ? 'south' : 'north';
    const seeds = document.createElement('span');
    seeds.className = 'seeds';
    seeds.setAttribute('aria-hidden', 'true');
    for (let k = 0; k < MAX_DOTS; k++) {
      const d = document.createElement('span');
      d.className = `seed tone${DOTS[k].tone}`;
      d.style.setProperty('--x', `${DOTS[k].x.toFixed(1)}%`);
      d.style.setProperty('--y', `${DOTS[k].y.toFixed(1)}%`);
      seeds.appendChild(d);
    }
    const count = document.createElement('span');
    count.className = 'count';
    count.setAttribute('aria-hidden', 'true');
    const letter = document.createElement('span');
    letter.className = 'letter';
    letter.setAttribute('aria-hidden', 'true');
    letter.textContent = pitLabel(ids[i], this.kind);
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.setAttribute('aria-hidden', 'true');
    // The letter before the count: the pit's name says both in that order.
    b.append(seeds, letter, ' ', count, mark);
    b.addEventListener('pointerdown', (ev) => { this.pointer = ev.pointerType; });
    b.addEventListener('click', (ev) => {
      const pit = ids[i];
      const pointer = ev.pointerType || this.pointer;
      this.pointer = null;
      if (!this.legal.has(pit) || this.anim) return;
      // A tap (not a click or a key) with the setting on: the first shows
      // where the last seed lands, the second on the same pit plays.
      if ((pointer === 'touch' || pointer === 'pen') && this.tapPreview() && this.armed !== pit) {
        this.arm(pit);
        this.onPreview(pit);
        return;
      }
      this.arm(null);
      this.onPlay(pit);
    });
    const enter = () => { if (this.legal.has(ids[i]) && !this.anim) this.onPreview(ids[i]); };
    // A tap's preview stays until another tap (Chromium sends a mouseleave
    // right after a tap); the focus leaving the pit ends it.
    const leave = (ev) => { if (ev.type === 'blur' || !this.armed) this.onPreview(null); };
    b.addEventListener('mouseenter', enter);
    b.addEventListener('focus', enter);
    b.addEventListener('mouseleave', leave);
    b.addEventListener('blur', leave);
    return b;
  }

  // Puts the viewer's row at the bottom, left to right in sowing order.
  _layout() {
    const south = this.pits.slice(0, this.row), north = this.pits.slice(this.row);
    const [near, far] = this.view === 'south' ? [south, north] : [north, south];
    this.rows.bottom.replaceChildren(...near);
    this.rows.top.replaceChildren(...far.slice().reverse());
    this.root.dataset.view = this.view;
  }

  setView(side) {
    if (side !== 'north') side = 'south';
    if (side === this.view) return;
    this.view = side;
    this._layout();
  }

  // Shows counts and scores without animation.
  show(state) {
    this.counts = state.pits.slice(0, this.ids.length);
    this.captured = { ...state.captured };
    // (Whose move and how it ended, for ear.js's reading keys.)
    this.turn = state.turn;
    this.over = state.over ? { winner: state.winner || null, reason: state.reason || '' } : null;
    for (let i = 0; i < this.ids.length; i++) this._drawPit(i, this.counts[i] || 0);
    this._drawTuzdyks(state.tuzdyk);
    this._drawStores();
  }

  // Togyz: marks each side's tuzdyk (a hole number of the opponent's row,
  // or null) with its owner.
  _drawTuzdyks(tuzdyk) {
    if (!this.marksTuzdyk) return;
    const tz = tuzdyk || {};
    this.tuzdyk = {
      south: tz.south ? this.ids[this.row + tz.south - 1] : null,
      north: tz.north ? this.ids[tz.north - 1] : null,
    };
    this.pits.forEach((b, i) => {
      const owner = this.ids[i] === this.tuzdyk.south ? 'south' : this.ids[i] === this.tuzdyk.north ? 'north' : '';
      b.classList.toggle('tuzdyk', !!owner);
      setData(b, 'tuzdyk', owner || null);
    });
  }

  _drawPit(i, n) {
    const b = this.pits[i];
    const dots = /** @type {HTMLElement} */ (b.firstChild).children;
    for (let k = 0; k < MAX_DOTS; k++) dots[k].classList.toggle('on', k < n);
    setText(b.querySelector('.count'), n);
    setData(b, 'count', n);
  }

  _drawStores() {
    const t = wordsIn(this.kind);
    for (const side of ['south', 'north']) {
      const el = this.stores && this.stores[side];
      if (!el) continue;
      const n = this.captured[side];
      setText(el.querySelector('.store-count'), n);
      setText(el.querySelector('.store-side'), t(`side.${side}`));
      setAttr(el, 'aria-label', t('store.label', { side: t(`side.${side}`), n }));
      const pile = el.querySelector('.store-seeds');
      if (pile && pile.childElementCount !== Math.min(n, 48)) {
        pile.replaceChildren(...Array.from({ length: Math.min(n, 48) }, (_, k) => {
          const d = document.createElement('span');
          d.className = `seed on tone${(k * 7) % 5}`;
          return d;
        }));
      }
    }
  }

  // Which pits respond: legal is a list of letters (empty: none).
  setLegal(legal) {
    this.legal = new Set(legal);
    this.pits.forEach((b, i) => {
      const on = this.legal.has(this.ids[i]);
      b.classList.toggle('legal', on);
      setAttr(b, 'aria-disabled', on ? 'false' : 'true');
      setAttr(b, 'tabindex', on ? 0 : -1);
    });
    this.root.classList.toggle('playable', this.legal.size > 0);
    this.relabel();
  }

  // After a draw (never in it: a focused pit shows its preview, a change
  // of state): the keyboard's focus on a pit that no longer responds
  // (just played by keyboard) moves to the first one that does, where the
  // next move is made. Keyboard focus only (:focus-visible): a pit
  // clicked or tapped keeps it. Whether it moved.
  keepFocus() {
    const held = this.pits.indexOf(/** @type {any} */ (document.activeElement));
    if (held < 0 || this.legal.has(this.ids[held]) || !this.legal.size || !document.activeElement.matches(':focus-visible')) return false;
    const next = this.pits.find((p, k) => this.legal.has(this.ids[k]));
    if (!next) return false;
    next.focus({ preventScroll: true });
    return true;
  }

  // "a: 5 seeds, your pit" / "A: 4 seeds, North's pit", and how to play it:
  // the text the pit shows (its letter and count) first, as it shows it.
  relabel() {
    const t = wordsIn(this.kind);
    this.pits.forEach((b, i) => {
      const n = this.counts[i], pit = pitLabel(this.ids[i], this.kind);
      const side = i < this.row ? 'south' : 'north';
      const owner = side === this.me ? t('pit.owner.yours') : t('pit.owner.side', { side: t(`side.${side}`) });
      let label = t(n === 1 ? 'pit.label.one' : 'pit.label', { pit, owner, n, name: holeName(pit) });
      const tz = this.ids[i] === this.tuzdyk.south ? 'south' : this.ids[i] === this.tuzdyk.north ? 'north' : null;
      if (tz) label += `. ${t('pit.label.tuzdyk', { side: t(`side.${tz}`) })}`;
      if (this.legal.has(pit)) label += `. ${t('pit.label.sow')}`;
      setAttr(b, 'aria-label', label);
    });
    this._drawStores();
  }

  // Sets the classes cls on the pits: marks maps a pit letter to the
  // classes of cls it gets; every other pit loses them. Only what differs
  // is written.
  _mark(cls, marks) {
    this.pits.forEach((b, i) => {
      const on = marks.get(this.ids[i]);
      for (const c of cls) b.classList.toggle(c, !!on && on.includes(c));
    });
  }

  // Marks what the last move did (null: nothing).
  markLast(last) {
    this.last = last || null;
    const marks = new Map();
    const add = (p, c) => marks.set(p, [...(marks.get(p) || []), c]);
    if (last) {
      add(last.pit, 'origin');
      last.sown.forEach((p) => add(p, 'sown'));
      if (last.sown.length) add(last.sown[last.sown.length - 1], 'landed');
      last.captured.forEach((p) => add(p, 'taken'));
    }
    this._mark(['origin', 'sown', 'landed', 'taken'], marks);
  }

  // Shows a preview ({move} from the engine) or clears it (null).
  markPreview(preview) {
    if (!preview || preview.move.pit !== this.armed) this.arm(null);
    const marks = new Map();
    const add = (p, c) => marks.set(p, [...(marks.get(p) || []), c]);
    if (preview) {
      const m = preview.move;
      add(m.pit, 'pv-origin');
      const land = m.sown[m.sown.length - 1];
      if (land) add(land, m.grand_slam ? 'pv-slam' : 'pv-land');
      if (m.tuzdyk && land) add(land, 'pv-tuzdyk');
      m.captured.forEach((p) => add(p, 'pv-take'));
    }
    this._mark(['pv-origin', 'pv-land', 'pv-take', 'pv-slam', 'pv-tuzdyk'], marks);
    this.root.classList.toggle('previewing', !!preview);
  }

  // The pit a first tap chose (null: none): marked until it is played or
  // the preview moves on.
  arm(letter) {
    this.armed = letter;
    this.pits.forEach((b, i) => b.classList.toggle('armed', this.ids[i] === letter));
  }

  // Marks the pit a hint suggests (null: none).
  markHint(letter) {
    this._mark(['hint'], new Map(letter ? [[letter, ['hint']]] : []));
  }

  // Marks the engine's best move in the position shown (analysis; null: none).
  markBest(letter) {
    this._mark(['best'], new Map(letter ? [[letter, ['best']]] : []));
  }

  _pit(letter) { return this.pits[this.ids.indexOf(letter)]; }

  // Resolves once no animation runs (at once when none does).
  settled() {
    return this.anim ? this.anim.done.then(() => this.settled()) : Promise.resolve();
  }

  // Stops a running animation at its end state.
  finish() {
    if (!this.anim) return;
    clearTimeout(this.anim.timer);
    const { resolve } = this.anim;
    this.anim = null;
    this.root.classList.remove('animating');
    resolve();
  }

  // Animates `last` from the position `before` to `after` (protocol shapes);
  // resolves when done. Without motion it shows `after` at once.
  animate(before, last, after) {
    this.finish();
    if (!before || !last || reducedMotion()) {
      this.show(after);
      return Promise.resolve();
    }
    const counts = before.pits.slice();
    const steps = [];
    const origin = this.ids.indexOf(last.pit);
    steps.push(() => { counts[origin] = 0; this._drawPit(origin, 0); this._pit(last.pit).classList.add('lifting'); });
    // Togyz: a seed sown into a tuzdyk goes at once to its owner's store.
    const tz = (before.tuzdyk && this.marksTuzdyk) ? {
      [before.tuzdyk.south ? this.ids[this.row + before.tuzdyk.south - 1] : '']: 'south',
      [before.tuzdyk.north ? this.ids[before.tuzdyk.north - 1] : '']: 'north',
    } : {};
    last.sown.forEach((p) => {
      const i = this.ids.indexOf(p);
      steps.push(() => {
        if (p in tz) {
          this.captured[tz[p]]++;
          this._drawStores();
        } else {
          counts[i]++;
          this._drawPit(i, counts[i]);
        }
        const b = this.pits[i];
        b.classList.remove('drop');
        void b.offsetWidth;  // restart the CSS animation
        b.classList.add('drop');
      });
    });
    if (last.captured.length) {
      steps.push(() => last.captured.forEach((p) => this._pit(p).classList.add('taking')));
    }
    steps.push(() => {
      this.pits.forEach((b) => b.classList.remove('drop', 'lifting', 'taking'));
      this.show(after);
    });
    const per = Math.max(60, Math.min(180, 1800 / steps.length));
    this.root.classList.add('animating');
    const ended = new Promise((resolve) => {
      let k = 0;
      const tick = () => {
        steps[k++]();
        if (k >= steps.length) {
          this.anim = null;
          this.root.classList.remove('animating');
          resolve();
          return;
        }
        this.anim.timer = setTimeout(tick, k === steps.length - 1 && last.captured.length ? per * 3 : per);
      };
      this.anim = { timer: setTimeout(tick, 0), resolve, done: null };
    });
    this.anim.done = ended;
    return ended;
  }
}
