// png-palette.mjs: makes a screenshot small enough to commit (make
// docs-picture): reads an 8-bit RGB or RGBA PNG, reduces it to at most 256
// colours (median cut, each colour then mapped to its nearest palette entry,
// no dithering) and writes it as a palette PNG. Alpha is dropped: a
// screenshot is opaque.
// Usage: node tests/docs/png-palette.mjs IN.png OUT.png
import fs from 'node:fs';
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// {width, height, rgb: Uint8Array of width*height*3}
function readPng(buf) {
  if (!buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let at = 8, ihdr = null;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') ihdr = data;
    else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const width = ihdr.readUInt32BE(0), height = ihdr.readUInt32BE(4);
  const depth = ihdr[8], colour = ihdr[9], interlace = ihdr[12];
  if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
    throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
  }
  const bpp = colour === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const cur = Buffer.alloc(stride), prev = Buffer.alloc(stride);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = v & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 3; k++) rgb[(y * width + x) * 3 + k] = cur[x * bpp + k];
    }
    cur.copy(prev);
  }
  return { width, height, rgb };
}

// Median cut over the image's distinct colours, weighted by their counts.
function palette(rgb, size) {
  const counts = new Map();
  for (let i = 0; i < rgb.length; i += 3) {
    const key = (rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const colours = [...counts].map(([key, n]) => [key >> 16, (key >> 8) & 0xff, key & 0xff, n]);
  const describe = (list) => {
    const lo = [255, 255, 255], hi = [0, 0, 0];
    let n = 0;
    for (const c of list) {
      for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], c[k]); hi[k] = Math.max(hi[k], c[k]); }
      n += c[3];
    }
    const ranges = [0, 1, 2].map((k) => hi[k] - lo[k]);
    const axis = ranges.indexOf(Math.max(...ranges));
    return { list, n, axis, score: ranges[axis] * n };
  };
  const boxes = [describe(colours)];
  while (boxes.length < size) {
    boxes.sort((p, q) => q.score - p.score);
    const box = boxes[0];
    if (box.list.length < 2 || box.score === 0) break;
    box.list.sort((p, q) => p[box.axis] - q[box.axis]);
    let half = 0, cut = 0;
    while (cut < box.list.length - 1 && half + box.list[cut][3] <= box.n / 2) half += box.list[cut++][3];
    cut = Math.max(cut, 1);
    boxes.splice(0, 1, describe(box.list.slice(0, cut)), describe(box.list.slice(cut)));
  }
  const entries = boxes.map((b) => [0, 1, 2].map((k) =>
    Math.round(b.list.reduce((s, c) => s + c[k] * c[3], 0) / b.n)));
  // Each distinct colour to its nearest entry.
  const index = new Map();
  for (const [key] of counts) {
    const r = key >> 16, g = (key >> 8) & 0xff, b = key & 0xff;
    let best = 0, bestD = Infinity;
    entries.forEach((e, i) => {
      const d = (e[0] - r) ** 2 + (e[1] - g) ** 2 + (e[2] - b) ** 2;
      if (d < bestD) { bestD = d; best = i; }
    });
    index.set(key, best);
  }
  return { entries, index };
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function writePalettePng({ width, height, rgb }) {
  const { entries, index } = palette(rgb, 256);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;   // bits per index
  ihdr[9] = 3;   // palette
  const raw = Buffer.alloc(height * (width + 1));   // filter 0 on every row
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[y * (width + 1) + 1 + x] = index.get((rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2]);
    }
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from(entries.flat())),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node tests/docs/png-palette.mjs IN.png OUT.png');
  process.exit(2);
}
const out = writePalettePng(readPng(fs.readFileSync(input)));
fs.writeFileSync(output, out);
console.log(`${output}: ${out.length} bytes`);
