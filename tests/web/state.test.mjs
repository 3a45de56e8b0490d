// state.test.mjs: the game screen's state (web/model.js's newModel) is
// sealed at every level, so a field added on the fly throws, and every
// field that web/ writes is one newModel declares.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newModel } from '../../web/model.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const MODES = ['online', 'local', 'record'];
const GROUPS = ['online', 'local', 'study'];

test('the state and each of its groups are sealed, in every mode', () => {
  for (const mode of MODES) {
    const m = newModel(mode);
    assert.equal(m.mode, mode);
    assert.ok(Object.isSealed(m), `${mode}: the state`);
    for (const g of GROUPS) {
      assert.equal(typeof m[g], 'object', `${mode}: ${g} is there`);
      assert.ok(m[g] !== null && Object.isSealed(m[g]), `${mode}: ${g} is sealed`);
    }
  }
});

test('a field added on the fly throws (module code is strict)', () => {
  const m = newModel('online');
  assert.throws(() => { m.createKind = 'togyz'; }, TypeError);
  assert.throws(() => { m.online.retryTimer = 1; }, TypeError);
  assert.throws(() => { m.local.myName = 'Ama'; }, TypeError);
  assert.throws(() => { m.study.recordDate = '2026.12.01'; }, TypeError);
  assert.throws(() => { delete m.review; }, TypeError);
  // Declared fields take their values.
  m.online.room = 'abc';
  m.local.hint = { ply: 3 };
  m.review = 2;
  assert.deepEqual([m.online.room, m.local.hint.ply, m.review], ['abc', 3, 2]);
});

// Every `model.a.b = …` in web/ names a field newModel declares.
test('web/ writes only declared fields', () => {
  const declared = newModel('online');
  const writes = [];
  for (const f of fs.readdirSync(WEB).filter((n) => n.endsWith('.js'))) {
    const src = fs.readFileSync(path.join(WEB, f), 'utf8');
    for (const m of src.matchAll(/\bmodel((?:\.\w+)+)\s*(?:=(?!=)|\+=|-=|\+\+|--)/g)) writes.push([f, m[1].slice(1).split('.')]);
  }
  assert.ok(writes.length > 20, `found the writes (${writes.length})`);
  for (const [f, keys] of writes) {
    let o = declared;
    for (let i = 0; i < keys.length - 1; i++) o = o[keys[i]];
    assert.ok(o && typeof o === 'object' && Object.hasOwn(o, keys[keys.length - 1]), `${f}: model.${keys.join('.')} is not declared`);
  }
});

// Timers and sockets live with their owners.
test('no timer, socket or worker in the state', () => {
  const names = (o) => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && Object.isSealed(v) ? [k, ...names(v)] : [k]));
  const m = newModel('online');
  for (const k of names(m)) assert.doesNotMatch(k, /timer|socket|worker/i, k);
  assert.equal(typeof m.online.conn, 'string', "conn is the connection's state, not the connection");
});
