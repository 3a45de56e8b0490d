// bench_ladder_time.mjs: how long one move of each level below hard takes
// in the browser's engine (the wasm modules of web/ai-worker.js, one a
// game), from a few positions of each game's opening and
// middlegame (plies 0 to 48 of a game medium plays against itself), each
// search from a cleared table, the least of three runs, after a warm-up:
//
// 1. under node: the search's CPU time (user + system), so that other
//    jobs on the machine do not count, and that time times 4 and 6 (the
//    CPU slowdowns of Chrome's mid-tier and low-end mobile presets) for a
//    phone-class device;
// 2. in headless Chromium with the page's CPU throttled by the DevTools
//    protocol (Emulation.setCPUThrottlingRate 4 and 6), the wall time on
//    the page's main thread (the throttling slows the page's thread, not
//    its workers; it is coarse, so short searches come out slower than
//    4 or 6 times). Wall time: the machine's other jobs count. Skipped
//    when CHROMIUM_FULL (default /usr/bin/chromium) or playwright-core is
//    missing.
//
// `make bench-ladder-time`. Env: AI_WASM, TOGYZ_AI_WASM, OW_EGDB (Oware's
// endgame database for node, as the page loads it; optional), CHROMIUM_FULL.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LADDERS } from '../../web/ai.js';

const AI_WASM = process.env.AI_WASM || 'web/ai.wasm';
const TOGYZ_AI_WASM = process.env.TOGYZ_AI_WASM || 'web/togyz-ai.wasm';
const FACTORS = [4, 6];
// Each game's steps below hard, weakest first.
const BELOW_HARD = { oware: LADDERS.oware.filter((l) => l !== 'hard'), togyz: LADDERS.togyz.filter((l) => l !== 'hard') };

// The measurement, self-contained (it runs under node and, as its source,
// in the page): ow and tg are the two modules' exports, cpu true for the
// process's CPU time (node), else performance.now(). Returns each game's
// rows {level, nodes, median, max} (ms).
// ladders: each game's ladder below hard (web/ai.js, LADDERS, handed in:
// the function runs in the page as its source). The engine's code of step
// n (1-based): easy and medium are levels 0 and 1 themselves, the others
// 10 + n (web/ai.js, levelCode).
function measure(ow, tg, cpu, ladders) {
  const OWARE = ladders.oware;
  const TOGYZ = ladders.togyz;
  const code = (ladder, n) => (ladder[n - 1] === 'easy' ? 0 : ladder[n - 1] === 'medium' ? 1 : 10 + n);
  const PLIES = [0, 6, 12, 24, 36, 48];
  const RUNS = 3;
  const clock = cpu
    ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
    : () => performance.now();
  const games = {
    Oware: {
      ladder: OWARE,
      start: () => ow.w_ai_start(),
      play: (pit) => ow.w_ai_play(pit),
      search: (level, seed) => ow.w_search(ow.w_ai_game(), level, seed, 0, 0, 0),
      clear: () => ow.w_search_clear(),
      nodes: () => ow.w_search_nodes(),
    },
    'Togyz Kumalak': {
      ladder: TOGYZ,
      start: () => tg.w_tg_start(),
      play: (pit) => tg.w_tg_play(pit),
      search: (level, seed) => tg.w_tg_search(level, seed, 0, 0, 0),
      clear: () => tg.w_tg_clear(),
      nodes: () => tg.w_tg_nodes(),
    },
  };
  // The position at ply of a game medium plays against itself (seed 7 +
  // ply); false if the game ends before.
  const line = (g, ply) => {
    g.start();
    for (let i = 0; i < ply; i++) {
      g.clear();
      const pit = g.search(1, 7 + i);
      if (pit < 0 || g.play(pit) !== 0) return false;
    }
    return true;
  };
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor((s.length - 1) / 2)]; };
  const out = {};
  for (const [name, g] of Object.entries(games)) {
    line(g, 0);
    const LADDER = g.ladder;
    for (let i = 0; i < 3; i++) { g.clear(); g.search(code(LADDER, LADDER.length), 1); }  // the optimised tier
    out[name] = [];
    for (let n = 1; n <= LADDER.length; n++) {
      const ms = [];
      let nodes = 0;
      for (const ply of PLIES) {
        if (!line(g, ply)) continue;
        let best = Infinity;
        for (let k = 0; k < RUNS; k++) {
          g.clear();
          const t0 = clock();
          const pit = g.search(code(LADDER, n), 100 + ply);
          const t = clock() - t0;
          if (pit < 0) throw new Error(`${name} ${LADDER[n - 1]} at ply ${ply}: search failed (${pit})`);
          best = Math.min(best, t);
        }
        ms.push(best);
        nodes = Math.max(nodes, g.nodes());
      }
      out[name].push({ level: LADDER[n - 1], nodes, median: median(ms), max: Math.max(...ms), positions: ms.length });
    }
  }
  return out;
}

function print(title, out, factors) {
  console.log(`\n${title}`);
  let slowest = { max: 0 };
  for (const [name, rows] of Object.entries(out)) {
    console.log(`${name}\n${'level'.padEnd(9)} ${'nodes max'.padStart(9)} ${'median'.padStart(8)} ${'max'.padStart(8)}` +
      factors.map((f) => `x${f} max`.padStart(9)).join(''));
    for (const r of rows) {
      if (r.max > slowest.max) slowest = { ...r, name };
      console.log(`${r.level.padEnd(9)} ${String(r.nodes).padStart(9)} ${r.median.toFixed(1).padStart(8)} ` +
        `${r.max.toFixed(1).padStart(8)}` + factors.map((f) => (r.max * f).toFixed(0).padStart(9)).join(''));
    }
  }
  console.log(`slowest: ${slowest.name} ${slowest.level}, max ${slowest.max.toFixed(1)} ms, ` +
    `median ${slowest.median.toFixed(1)} ms` + factors.map((f) => `; x${f}: ${(slowest.max * f).toFixed(0)} ms`).join(''));
}

const now = () => Math.floor(performance.now()) >>> 0;
const load = async (file) =>
  (await WebAssembly.instantiate(readFileSync(file), { env: { now_ms: now } })).instance.exports;

// 1. node, CPU time.
const ow = await load(AI_WASM);
const egdbFile = process.env.OW_EGDB || 'build/oware.egdb';
let egdbOn = false;
if (existsSync(egdbFile)) {
  const bytes = readFileSync(egdbFile);
  const at = ow.w_egdb_buffer(bytes.length);
  if (at) {
    new Uint8Array(ow.memory.buffer, at, bytes.length).set(bytes);
    egdbOn = ow.w_egdb_open(bytes.length) === 0;
  }
}
const tg = await load(TOGYZ_AI_WASM);
console.log('one move of each level below hard in wasm: positions at plies 0, 6, 12, 24, 36, 48 of a ' +
  'game medium plays against itself, each search from a cleared table, the least of 3 runs; ms');
print(`wasm under node, CPU time (Oware's endgame database ${egdbOn ? 'on' : 'off'}); ` +
  `x4, x6: the max times the phone-class factor`, measure(ow, tg, true, BELOW_HARD), FACTORS);

// 2. Chromium, the page's main thread throttled.
let chromium = null;
const exe = process.env.CHROMIUM_FULL || '/usr/bin/chromium';
try {
  chromium = createRequire(new URL('../package.json', import.meta.url))('playwright-core').chromium;
} catch { /* no playwright-core */ }
if (!chromium || !existsSync(exe)) {
  console.log('\nChromium: skipped (no playwright-core or no CHROMIUM_FULL)');
} else {
  const browser = await chromium.launch({ executablePath: exe, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const files = { '/ai.wasm': AI_WASM, '/togyz-ai.wasm': TOGYZ_AI_WASM };
    await page.route('http://bench.invalid/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      if (files[path]) route.fulfill({ body: readFileSync(files[path]), contentType: 'application/wasm' });
      else route.fulfill({ body: '<!doctype html><title>bench</title>', contentType: 'text/html' });
    });
    await page.goto('http://bench.invalid/');
    await page.evaluate(async () => {
      const env = { now_ms: () => Math.floor(performance.now()) >>> 0 };
      const get = async (u) => (await WebAssembly.instantiate(await (await fetch(u)).arrayBuffer(), { env })).instance.exports;
      window.benchOw = await get('/ai.wasm');
      window.benchTg = await get('/togyz-ai.wasm');
    });
    const cdp = await page.context().newCDPSession(page);
    for (const rate of [1, ...FACTORS]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const out = await page.evaluate(`(${measure.toString()})(window.benchOw, window.benchTg, false, ${JSON.stringify(BELOW_HARD)})`);
      print(`Chromium ${browser.version()}, the page's main thread, CPU throttled x${rate}, wall time ` +
        '(Oware without the endgame database)', out, []);
    }
  } finally {
    await browser.close();
  }
}
