// types.test.mjs: the client's JSDoc types checked by TypeScript's
// compiler (tsc, a dev dependency of tests/ only; web/ ships plain
// JavaScript): every module but the listed ones opts in with
// `// @ts-check`, the whole of web/ checks clean (tsconfig.json beside
// this file), and a misspelled read of the state, of a controller or of a
// kind's record is an error, not undefined.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(HERE, '../../web');
const TSC = path.resolve(HERE, '../node_modules/typescript/bin/tsc');
// Not checked: the worker and the service worker (other globals), the
// build's files, and i18n.js (its strings are being moved to a file per
// language; its API is what the others call).
const UNCHECKED = ['ai-worker.js', 'sw.js', 'sw-files.js', 'boot.js', 'i18n.js'];

const tsc = (...args) => spawnSync(process.execPath, [TSC, ...args], { encoding: 'utf8' });

test('every module of web/ but the listed ones asks for the check', () => {
  const missing = fs.readdirSync(WEB).filter((f) => f.endsWith('.js') && !UNCHECKED.includes(f))
    .filter((f) => !/^\/\/ @ts-check$/m.test(fs.readFileSync(path.join(WEB, f), 'utf8')));
  assert.deepEqual(missing, []);
});

test('web/ type-checks clean', () => {
  const r = tsc('-p', path.join(HERE, 'tsconfig.json'));
  assert.equal(r.stdout + r.stderr, '');
  assert.equal(r.status, 0);
});

test('a misspelled read is an error', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ow-types-'));
  try {
    const web = (f) => JSON.stringify(path.join(WEB, f));
    fs.writeFileSync(path.join(dir, 'misspelled.js'), [
      '// @ts-check',
      `import { newModel } from ${web('model.js')};`,
      `import { onlineGame } from ${web('online.js')};`,
      `import { localGame } from ${web('local.js')};`,
      `import { KIND } from ${web('kinds.js')};`,
      "const st = newModel('online');",
      'export const a = st.online.pendng;',
      'export const b = st.reveiw;',
      "export const c = KIND.oware.pitForkey('a', 'south');",
      "export const d = onlineGame({ room: 'r' }, () => {}).offerDraww;",
      'export const e = localGame({ saved: null }, () => {}).state.local.hitn;',
      'export const f = st.online.pending;',
      '',
    ].join('\n'));
    const base = JSON.parse(fs.readFileSync(path.join(HERE, 'tsconfig.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: base.compilerOptions, files: ['misspelled.js'] }));
    const r = tsc('-p', path.join(dir, 'tsconfig.json'));
    const errors = [...r.stdout.matchAll(/misspelled\.js\((\d+),\d+\): error (TS\d+)/g)].map((m) => Number(m[1]));
    // One error on each misspelled line (7 to 11), none on the last.
    assert.deepEqual(errors, [7, 8, 9, 10, 11], r.stdout);
    assert.notEqual(r.status, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
