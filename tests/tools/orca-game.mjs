// orca-game.mjs: a game against the computer played with the keyboard in
// a visible Chromium (on the X display $DISPLAY, with its accessibility on)
// while Orca runs: run by orca-game.sh, which starts the display, the
// session bus, AT-SPI and Orca, and reads what Orca spoke from its debug
// log. Not a test of `make test` (Orca is not one of the test machine's
// packages): docs/testing.md says what it recorded.
import { chromium } from 'playwright-core';
import { Server, root } from '../browser/lib.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, replay } from '../../web/engine.js';

await loadEngine(fs.readFileSync(path.join(root, 'web/engine.wasm')));
const plies = Number(process.env.PLIES || 200);
const server = await new Server().start();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: false,
  args: ['--no-sandbox', '--disable-gpu', '--force-renderer-accessibility', '--no-first-run', '--disable-background-networking'],
});
try {
  const ctx = await browser.newContext({ locale: process.env.LOCALE || 'en-US', reducedMotion: 'reduce', viewport: { width: 1000, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => window.owareTest && window.owareTest.ready);
  await page.focus('#ai-play');
  await page.keyboard.press('Enter');
  await page.waitForURL(/local=1/);
  await page.waitForFunction(() => window.owareTest && window.owareTest.ready);
  const moves = () => page.$$eval('#moves .mv', (l) => l.map((b) => b.textContent.trim()));
  // What the page put in its live region, and what Orca spoke of it: the
  // first 24 characters of the text looked for in Orca's debug log.
  const log = process.env.ORCA_OUT;
  let seenTo = 0;
  const spoken = async (text) => {
    const want = text.slice(0, 24);
    const end = Date.now() + 10000;
    while (Date.now() < end) {
      const lines = fs.readFileSync(log, 'utf8').split('\n');
      const i = lines.findIndex((l, k) => k >= seenTo && l.includes('SPEECH OUTPUT') && l.includes(want));
      if (i >= 0) { seenTo = i + 1; return true; }
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  };
  let live = '';
  const said = async () => {
    await page.waitForFunction((was) => { const t = document.querySelector('#live').textContent; return t && t !== was; }, live, { timeout: 60000 });
    live = await page.textContent('#live');
    console.log(`page said: ${live}\n  Orca spoke it: ${await spoken(live) ? 'yes' : 'NO (not within 10 s)'}`);
  };
  for (let n = 0; n < plies; n++) {
    // The player's turn (a pit responds) or the end.
    await page.waitForFunction(() => !!document.querySelector('#board .pit.legal') || !document.querySelector('#over').hidden, null, { timeout: 60000 });
    if (!(await page.isHidden('#over'))) break;
    const played = await moves();
    const g = replay(played);
    let best = g.legal()[0], most = -1;
    for (const m of g.legal()) { const p = g.preview(m); if (p.move && p.move.seeds > most) { most = p.move.seeds; best = m; } }
    await page.keyboard.press(best);
    await said();
    if (replay([...played, best]).state().over) break;
    await said();  // the computer's reply
    if (n === 2) for (const k of ['r', 'o', 's', 'w', 'l', 't']) {
      console.log(`key ${k}:`);
      await page.keyboard.press(k);
      await said();
    }
  }
  await page.waitForTimeout(3000);
  console.log('moves:', (await moves()).join(' '));
  console.log('result:', await page.textContent('#over-reason'));
} finally {
  await browser.close();
  await server.stop();
  server.cleanup();
}
