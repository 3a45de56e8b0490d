// kinds.js: one record per game kind, which every part of the page asks
// instead of testing the kind's name: the rules engine, the replay, the
// wire form, the keys that pick a pit, how a hole is named, a start
// position checked, the computer and its ladder, the rows. A third game (or
// a variant) is one more record here, with its engine module and its
// worker. kind.js stays the leaf without imports (i18n.js asks it which
// kind the page shows); this module brings the engines in.
// @ts-check
import { Game as OwareGame, replay as owareReplay } from './engine.js';
import { Game as TogyzGame, replay as togyzReplay, togyzRecord } from './togyz.js';
import { kindOf, KEY_PREFIX, PIT_IDS, pitLabel, togyzFromWire } from './kind.js';
import { LADDERS, computerFor } from './ai.js';
import { tIn } from './i18n.js';

/** @typedef {'oware' | 'togyz'} KindName */
/** @typedef {'south' | 'north'} Side */
/**
 * A start position as the engines take it (Togyz adds its tuzdyks).
 * @typedef {{pits: number[], captured: {south: number, north: number},
 *   tuzdyk?: {south: number | null, north: number | null}, turn: Side}} Position
 */
/**
 * One game kind.
 * @typedef {object} Kind
 * @property {KindName} name          'oware' | 'togyz' (kind.js's names, the wire's `kind`)
 * @property {string} keyPrefix       the prefix of its own variant of a key in the language files ('' for none)
 * @property {any} Game               the rules engine's Game class (engine.js, togyz.js)
 * @property {(moves: string[], start?: Position | null) => any} replay  plays moves from start; throws EngineError
 * @property {string} ids             every pit name, South's row first
 * @property {number} row             pits in a row (6, 9)
 * @property {boolean} numbered       a pit is written (and typed) as its hole number 1..row, not its letter
 * @property {boolean} tuzdyk         the board marks tuzdyks (a seed sown into one goes to its owner)
 * @property {boolean} studied        the record screen, the engine's analysis, OGN download and the editor know it
 * @property {boolean} named          lists (the games list) name the kind; the default kind goes unnamed
 * @property {boolean} lastFromReplay the room's `last` is read from the page's replay, not taken from the wire
 * @property {(st: any) => any} fromWire   a room's `state` from the wire in the page's terms
 * @property {(pit: string) => string} wirePit  a move as the wire carries it
 * @property {object} createFields    what `create` adds for this kind ({} for Oware, the default)
 * @property {(key: string, turn: Side) => string | null} pitForKey  the pit a key typed picks for the side to move, or null
 * @property {(pit: string) => string} holeName  a pit in a sentence ("c"; "Black's hole 2")
 * @property {(pos: any) => Position | null} validStart  a saved start position the engine accepts, copied; else null
 * @property {((history: any[], state: any) => string) | null} record  the record as text in the kind's own notation (null: OGN, study.js)
 * @property {readonly string[]} ladder  the computer's levels, weakest first (ai.js)
 * @property {() => import('./ai.js').Computer} computer  a new computer player (its worker starts on its first search)
 */

const copyCounts = (pos) => ({ pits: pos.pits.slice(), captured: { ...pos.captured } });

// Letters a..f (either case) or digits 1..9: the hole of the row of the
// side to move, as the rows are numbered in sowing order.
function keyPicker(ids, row, numbered) {
  const south = ids.slice(0, row);
  return (key, turn) => {
    if (typeof key !== 'string' || key.length !== 1) return null;
    const n = numbered ? (/^[1-9]$/.test(key) ? Number(key) - 1 : -1) : south.indexOf(key.toLowerCase());
    if (n < 0 || n >= row) return null;
    return ids[(turn === 'south' ? 0 : row) + n];
  };
}

/** @type {Kind} */
const oware = Object.freeze({
  name: 'oware',
  keyPrefix: KEY_PREFIX.oware,
  Game: OwareGame,
  replay: owareReplay,
  ids: PIT_IDS.oware,
  row: 6,
  numbered: false,
  tuzdyk: false,
  studied: true,
  named: false,
  lastFromReplay: false,
  fromWire: (st) => st,
  wirePit: (pit) => pit,
  createFields: Object.freeze({}),
  pitForKey: keyPicker(PIT_IDS.oware, 6, false),
  holeName: (pit) => pitLabel(pit, 'oware'),
  validStart(pos) {
    if (!pos) return null;
    try { OwareGame.fromPosition(pos); } catch { return null; }
    return { ...copyCounts(pos), turn: pos.turn };
  },
  record: null,
  ladder: LADDERS.oware,
  computer: () => computerFor('oware'),
});

/** @type {Kind} */
const togyz = Object.freeze({
  name: 'togyz',
  keyPrefix: KEY_PREFIX.togyz,
  Game: TogyzGame,
  replay: togyzReplay,
  ids: PIT_IDS.togyz,
  row: 9,
  numbered: true,
  tuzdyk: true,
  studied: false,
  named: true,
  lastFromReplay: true,
  fromWire: togyzFromWire,
  // The hole number "1".."9" of the side to move (protocol/PROTOCOL.md).
  wirePit: (pit) => pitLabel(pit, 'togyz'),
  // A room is Oware without `kind`.
  createFields: Object.freeze({ kind: 'togyz' }),
  pitForKey: keyPicker(PIT_IDS.togyz, 9, true),
  // The hole with its side ("Black's hole 2"): the number alone says too little.
  holeName: (pit) => tIn('togyz', 'learn.hole', { n: pitLabel(pit, 'togyz'), side: tIn('togyz', `side.${pit === pit.toLowerCase() ? 'south' : 'north'}`) }),
  validStart(pos) {
    if (!pos) return null;
    try { TogyzGame.fromPosition(pos); } catch { return null; }
    const tz = pos.tuzdyk || {};
    return { ...copyCounts(pos), tuzdyk: { south: tz.south ?? null, north: tz.north ?? null }, turn: pos.turn };
  },
  record: togyzRecord,
  ladder: LADDERS.togyz,
  computer: () => computerFor('togyz'),
});

/** @type {Readonly<Record<KindName, Kind>>} */
export const KIND = Object.freeze({ oware, togyz });

/**
 * The record of the kind k names (anything else: Oware's, kind.js's kindOf).
 * @param {unknown} k
 * @returns {Kind}
 */
export const kindRec = (k) => KIND[kindOf(k)];

/**
 * The kind whose board has n pits (a room's state without `kind`), else Oware.
 * @param {number} n
 * @returns {Kind}
 */
export const kindByPits = (n) => Object.values(KIND).find((r) => r.ids.length === n) || oware;

// The board editor's Oware positions (editor.js's buttons, by key): the
// standard start and the handicaps, where the stronger side starts with
// one or two pits of its row empty; those seeds count as the other
// side's captures (the total stays 48). South moves first.
const STANDARD = { pits: Array(12).fill(4), captured: { south: 0, north: 0 }, turn: 'south' };
export const PRESETS = Object.freeze({
  start: STANDARD,
  give4: { pits: [4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], captured: { south: 0, north: 4 }, turn: 'south' },
  give8: { pits: [4, 4, 4, 4, 0, 0, 4, 4, 4, 4, 4, 4], captured: { south: 0, north: 8 }, turn: 'south' },
  give4n: { pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0], captured: { south: 4, north: 0 }, turn: 'south' },
});

// The handicap an Oware position is (a key of PRESETS but the standard
// start), or null: a room's line names it ("Handicap: North gives 4").
export function presetOf(pos) {
  if (!pos || !Array.isArray(pos.pits) || pos.pits.length !== 12 || !pos.captured) return null;
  const key = Object.keys(PRESETS).find((k) => {
    const p = PRESETS[k];
    return p.turn === pos.turn && p.captured.south === pos.captured.south && p.captured.north === pos.captured.north &&
      p.pits.every((n, i) => n === pos.pits[i]);
  });
  return key && key !== 'start' ? key : null;
}
