// make-icons.mjs: the app's PNG icons (web/icons/) drawn from web/icon.svg
// by Chromium, for the web app manifest: 192 and 512 px on the page's
// paper colour, and a maskable 512 px with the mark inside the central 80%
// safe zone on a full-bleed background. Run: make icons (then commit them).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../browser/lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const svg = fs.readFileSync(path.join(root, 'web/icon.svg'), 'utf8');
const out = path.join(root, 'web/icons');
fs.mkdirSync(out, { recursive: true });

const ICONS = [
  { name: 'icon-192.png', size: 192, mark: 0.92, bg: '#f7f0e5', round: 0.22 },
  { name: 'icon-512.png', size: 512, mark: 0.92, bg: '#f7f0e5', round: 0.22 },
  { name: 'icon-maskable-512.png', size: 512, mark: 0.66, bg: '#f7f0e5', round: 0 },
  { name: 'apple-touch-icon.png', size: 180, mark: 0.86, bg: '#f7f0e5', round: 0 },
];

const browser = await launchBrowser([], { full: true });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const i of ICONS) {
    await page.setViewportSize({ width: i.size, height: i.size });
    const m = Math.round(i.size * i.mark);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">
      <div style="width:${i.size}px;height:${i.size}px;background:${i.bg};border-radius:${i.round * 100}%;
        display:flex;align-items:center;justify-content:center">
      <img style="width:${m}px;height:${m}px" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">
      </div></body></html>`);
    await page.screenshot({ path: path.join(out, i.name), omitBackground: true });
    console.log(`web/icons/${i.name}: ${fs.statSync(path.join(out, i.name)).size} bytes`);
  }
} finally {
  await browser.close();
}
