// orca-game.mjs: a game against the computer played with the keyboard in
// a visible Chromium (on the X display $DISPLAY, with its accessibility on)
// while Orca runs: run by orca-game.sh, which starts the display, the
// session bus, AT-SPI and Orca, and reads what Orca spoke from its debug
// log (the page's sentences printed, as "page said: …"). Not a test of `make test` (Orca is not one of the test machine's
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
  executablePath: process.env.CHROMIUM_FULL || '/usr/bin/chromium', headless: false,
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
  // The moves played (a move's button may add its capture: "F +9").
  const moves = () => page.$$eval('#moves .mv', (l) => l.map((b) => b.textContent.trim().split(/\s/)[0]));
  // Orca reads a page through when it loads: the game starts after that.
  await page.waitForTimeout(Number(process.env.READ_MS || 10000));
  // Each sentence the page puts in its live region (a node of its own:
  // ui.js's announce), printed for orca-game.sh to look for in what Orca
  // spoke; then a pause for Orca to speak it (a tool, not a test).
  const said = async () => {
    await page.waitForFunction(() => { const p = document.querySelector('#live p'); return p && !p.dataset.heard; }, null, { timeout: 60000 });
    const text = await page.$eval('#live p', (p) => { p.dataset.heard = '1'; return p.textContent; });
    console.log(`page said: ${text}`);
    await page.waitForTimeout(2500);
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
