// bench_togyz_search.mjs: the Togyz Kumalak search's depth and speed in
// 1 s (hard's budget) from three positions, native (`oware best --game
// togyz --time-ms 1000`) and in wasm under node (web/togyz-ai.wasm), and
// the nodes of a fixed depth (12 from the start), the same in both.
// `make bench-togyz-search`. Env: OWARE, TOGYZ_AI_WASM.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const oware = process.env.OWARE || 'build/oware';
const { instance } = await WebAssembly.instantiate(readFileSync(process.env.TOGYZ_AI_WASM || 'web/togyz-ai.wasm'),
  { env: { now_ms: () => Math.floor(performance.now()) >>> 0 } });
const x = instance.exports;
const lines = { start: [], 'ply 10': '7 4 5 3 2 8 1 9 6 2'.split(' '), 'ply 40': null };

// A line of 40 plies: hard at depth 4 from the start (reproducible).
lines['ply 40'] = [];
for (let i = 0; i < 40; i++) {
  const r = JSON.parse(execFileSync(oware, ['best', '--game', 'togyz', '--depth', '4', ...lines['ply 40']], { encoding: 'utf8' }));
  lines['ply 40'].push(String(r.move));
}

function wasmAt(holes) {
  x.w_tg_start();
  const turn = () => new Uint8Array(x.memory.buffer, x.w_tg_game(), 28)[22];
  for (const h of holes) x.w_tg_play(turn() * 9 + Number(h) - 1);
}

for (const [name, holes] of Object.entries(lines)) {
  let t0 = performance.now();
  const n = JSON.parse(execFileSync(oware, ['best', '--game', 'togyz', '--time-ms', '1000', ...holes], { encoding: 'utf8' }));
  const nms = performance.now() - t0;
  wasmAt(holes);
  x.w_tg_clear();
  t0 = performance.now();
  x.w_tg_search(2, 1, 1000, 0, 0);
  const wms = performance.now() - t0;
  console.log(`${name.padEnd(7)} native depth ${n.depth}, ${(n.nodes / 1e6).toFixed(2)} M nodes, ` +
    `${(n.nodes / nms / 1000).toFixed(2)} M/s | wasm depth ${x.w_tg_depth()}, ` +
    `${(x.w_tg_nodes() / 1e6).toFixed(2)} M nodes, ${(x.w_tg_nodes() / wms / 1000).toFixed(2)} M/s`);
}
wasmAt([]);
x.w_tg_clear();
x.w_tg_search(2, 1, 0, 12, 0);
const n12 = JSON.parse(execFileSync(oware, ['best', '--game', 'togyz', '--depth', '12'], { encoding: 'utf8' }));
console.log(`depth 12 from the start: native ${n12.nodes} nodes, wasm ${x.w_tg_nodes()} nodes`);
