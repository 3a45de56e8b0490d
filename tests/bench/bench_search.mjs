// bench_search.mjs: the search compiled to wasm under node: depth reached
// and nodes per second from the start in a time budget (default 1000 ms).
// usage: node bench_search.mjs MODULE.wasm [MS]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [file, msArg] = process.argv.slice(2);
const ms = Number(msArg || 1000);
const env = { now_ms: () => Math.floor(performance.now()) >>> 0 };
const { instance } = await WebAssembly.instantiate(readFileSync(file), { env });
const x = instance.exports;

x.w_search_clear();
const g = x.bench_start();
const t0 = performance.now();
const pit = x.w_search(g, 2, 1, ms, 0, 0);
const s = (performance.now() - t0) / 1000;
const nodes = x.w_search_nodes();
console.log(`wasm search from the start, ${ms} ms budget: depth ${x.w_search_depth()}, ` +
  `${nodes} nodes in ${s.toFixed(3)} s, ${(nodes / s / 1e6).toFixed(2)} M nodes/s, ` +
  `move ${'abcdefABCDEF'[pit]} score ${x.w_search_score()}`);
