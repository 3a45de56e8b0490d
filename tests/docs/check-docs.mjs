// check-docs.mjs: the documentation stays whole (make test-docs).
// (a) Every relative link and image of every Markdown file of the
//     repository (tracked, or new and not ignored) leads to a file that
//     exists, and every #anchor to a heading of the file it names (or of the
//     same file), by GitHub's slugs: lower case, punctuation other than - and
//     _ dropped, each space a -, a repeated slug given -1, -2, ...
// (b) Every --flag and OW_* variable that `owared --help` lists is in
//     docs/running.md (OWARED names the binary; build/owared by default).
// Prints one line per problem, then "docs: N passed, M failed" (N, M: checks);
// exits 1 when any check failed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let passed = 0;
let failed = 0;
function check(ok, problem) {
  if (ok) { passed++; return; }
  failed++;
  console.log(problem);
}

// The Markdown files: git's list when there is one, else a walk of the tree.
function markdownFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return [...new Set(out.split('\0').filter(Boolean))]
      .filter((f) => fs.existsSync(path.join(root, f))).sort();
  } catch {
    const found = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = path.posix.join(dir, e.name);
        if (e.isDirectory()) {
          if (!['.git', 'node_modules', 'build', 'data'].includes(e.name)) walk(rel);
        } else if (e.name.endsWith('.md')) found.push(rel);
      }
    };
    walk('.');
    return found.map((f) => f.replace(/^\.\//, '')).sort();
  }
}

// The text with code blocks and code spans blanked out (newlines kept, so
// offsets still give line numbers): nothing in code is a link or a heading.
function withoutCode(text) {
  const lines = text.split('\n');
  let fence = null;
  let prevBlank = true;
  let inIndented = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      if (line.trimStart().startsWith(fence)) fence = null;
      lines[i] = '';
      continue;
    }
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (open) { fence = open[1]; lines[i] = ''; continue; }
    const blank = line.trim() === '';
    // An indented code block: 4 or more spaces after a blank line (inside a
    // list its text is indented too, but never by 4 after a blank line).
    if (!blank && /^ {4,}|^\t/.test(line) && (prevBlank || inIndented)) {
      inIndented = true;
      lines[i] = '';
    } else if (!blank) {
      inIndented = false;
    }
    prevBlank = blank;
  }
  // Code spans: a run of backticks up to the next run of the same length.
  return lines.join('\n').replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => m.replace(/[^\n]/g, ' '));
}

// The anchors of a Markdown file: its headings' slugs, as GitHub makes
// them, and any id= or name= of its HTML.
const anchorCache = new Map();
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const plain = withoutCode(text);
  const raw = text.split('\n');
  const seen = new Map();
  const anchors = new Set();
  const add = (heading) => {
    const shown = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')    // a link: its text
      .replace(/<[^>]+>/g, '')                       // HTML tags
      .replace(/[*`]/g, '');                         // emphasis, code marks
    const base = shown.trim().toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    const n = seen.get(base) || 0;
    if (n > 0) slug = `${base}-${n}`;
    seen.set(base, n + 1);
    anchors.add(slug);
  };
  const lines = plain.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?\s*$/.exec(lines[i]);
    if (atx) {
      // The heading's own text, code spans included (blanked in plain).
      const whole = /^ {0,3}#{1,6}(?:\s+(.*?))?\s*$/.exec(raw[i]);
      add((whole[1] || '').replace(/\s+#+$/, ''));
    } else if (i > 0 && /^ {0,3}(=+|-+)\s*$/.test(lines[i]) && lines[i - 1].trim() !== ''
      && !/^\s*([-*+]|\d+[.)])\s/.test(lines[i - 1]) && !/^\s*\|/.test(lines[i - 1])) {
      add(raw[i - 1]);
    }
  }
  for (const m of plain.matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(m[1]);
  anchorCache.set(file, anchors);
  return anchors;
}

// (a) Links.
for (const file of markdownFiles()) {
  const text = withoutCode(fs.readFileSync(path.join(root, file), 'utf8'));
  const targets = [];
  const inline = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  for (const m of text.matchAll(inline)) targets.push([m.index, m[1].replace(/^<|>$/g, '')]);
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) targets.push([m.index, m[1].replace(/^<|>$/g, '')]);
  for (const m of text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]*)"/gi)) targets.push([m.index, m[1]]);
  for (const [at, target] of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;  // not relative
    const line = text.slice(0, at).split('\n').length;
    const where = `${file}:${line}: ${target}`;
    const hash = target.indexOf('#');
    let rel = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? null : target.slice(hash + 1);
    rel = rel.replace(/\?.*$/, '');
    let dest = file;
    if (rel) {
      let decoded = rel;
      try { decoded = decodeURIComponent(rel); } catch { /* checked as written */ }
      dest = decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded);
      dest = path.posix.normalize(dest).replace(/\/$/, '');
      const inside = dest !== '..' && !dest.startsWith('../');
      if (!inside || !fs.existsSync(path.join(root, dest))) {
        check(false, `${where}: no such file`);
        continue;
      }
    }
    if (anchor === null || anchor === '' || !dest.endsWith('.md')) {
      check(true);
      continue;
    }
    let want = anchor;
    try { want = decodeURIComponent(anchor); } catch { /* checked as written */ }
    check(anchorsOf(dest).has(want), `${where}: no heading #${want} in ${dest}`);
  }
}

// (b) owared --help against docs/running.md.
const owared = path.resolve(root, process.env.OWARED || 'build/owared');
let help = '';
try {
  help = execFileSync(owared, ['--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
} catch (e) {
  help = `${e.stdout || ''}`;
  check(help !== '', `${owared} --help: ${e.message.split('\n')[0]}`);
}
const runningPath = 'docs/running.md';
const running = fs.existsSync(path.join(root, runningPath)) ? fs.readFileSync(path.join(root, runningPath), 'utf8') : '';
const names = new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((m) => m[0]));
const vars = new Set([...help.matchAll(/\bOW_[A-Z0-9_]+/g)].map((m) => m[0]));
check(names.size > 0 && vars.size > 0, `${owared} --help lists no flag or no OW_ variable`);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const flag of names) {
  check(new RegExp(`(?<![\\w-])${escape(flag)}(?![a-z0-9-])`).test(running),
    `${runningPath}: the flag ${flag} of owared --help is not documented`);
}
for (const v of vars) {
  check(new RegExp(`\\b${escape(v)}(?![A-Z0-9_])`).test(running),
    `${runningPath}: the variable ${v} of owared --help is not documented`);
}

console.log(`docs: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
