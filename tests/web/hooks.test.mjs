// hooks.test.mjs: the browser tests meet the page in one place: web/hooks.js
// makes window.owareTest (sealed), and no other module of web/ names a
// test hook on window.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

test('only hooks.js names window.oware…', () => {
  const named = fs.readdirSync(WEB).filter((n) => n.endsWith('.js') && n !== 'hooks.js')
    .filter((f) => /window\s*\.\s*oware|window\s*\[\s*['"]oware/.test(fs.readFileSync(path.join(WEB, f), 'utf8')));
  assert.deepEqual(named, []);
});

test('window.owareTest: sealed, its fields as documented, a stall time given before load kept', async () => {
  globalThis.window = { owareTest: { stallMs: 1500 } };
  try {
    const { hooks } = await import('../../web/hooks.js');
    assert.equal(globalThis.window.owareTest, hooks);
    assert.ok(Object.isSealed(hooks));
    assert.deepEqual(Object.keys(hooks).sort(), ['beeps', 'ready', 'sounds', 'stallMs']);
    assert.deepEqual([hooks.ready, hooks.sounds, hooks.beeps, hooks.stallMs], [false, [], 0, 1500]);
    assert.throws(() => { hooks.owareReady = true; }, TypeError);
  } finally {
    delete globalThis.window;
  }
});
