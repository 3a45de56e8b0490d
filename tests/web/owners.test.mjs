// owners.test.mjs: each element of the page that the code names by id is
// drawn and wired by one module of web/ (ui.js alone switches the screens).
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
// The screens: ui.js shows and hides them; a screen's own module draws inside.
const SCREENS = { game: ['render.js', 'ui.js'], 'hero-board': ['start.js', 'ui.js'], event: ['event-view.js', 'ui.js'] };

test('each element named by id has one module', () => {
  const owners = new Map();
  for (const f of fs.readdirSync(WEB).filter((n) => n.endsWith('.js'))) {
    const src = fs.readFileSync(path.join(WEB, f), 'utf8');
    // $('id'), getElementById('id'), and actions.js's act('id', …).
    for (const m of src.matchAll(/(?:\$|getElementById|\bact)\(\s*'([\w-]+)'/g)) {
      if (!owners.has(m[1])) owners.set(m[1], new Set());
      owners.get(m[1]).add(f);
    }
  }
  assert.ok(owners.size > 100, `found the ids (${owners.size})`);
  const shared = [...owners].filter(([id, fs]) => fs.size > 1 && JSON.stringify([...fs].sort()) !== JSON.stringify(SCREENS[id]))
    .map(([id, fs]) => `${id}: ${[...fs].sort().join(', ')}`);
  assert.deepEqual(shared, []);
});
