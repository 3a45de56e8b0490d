// learn.test.mjs: the lessons' controller (web/learn.js's lessonPanel) in
// node, on the real lessons of web/lessons/oware.json and a fake board: a
// move that meets the step's goal solves it, a listed wrong move says why,
// another says what it misses, the keys pick pits as on the game screen, a
// question answered, and a lesson finished is kept.
// Run: make test-web
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngines } from './fakes.mjs';
import { lessonPanel } from '../../web/learn.js';

await loadEngines();
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const LESSONS = JSON.parse(fs.readFileSync(path.join(WEB, 'lessons/oware.json'), 'utf8')).lessons;

// A Board as the panel drives it: what it was shown and sown.
function fakeBoard(kind) {
  return {
    kind, anim: null, sown: [], shown: null,
    finish() {}, show(st) { this.shown = st; }, markLast() {}, relabel() {},
    animate(before, info, after) { this.sown.push(info.pit); this.shown = after; return Promise.resolve(); },
  };
}

function panel() {
  const finished = new Map();
  let board = null;
  let draws = 0;
  const played = [];
  const p = lessonPanel({ effects: {
    board: (kind) => (board && board.kind === kind ? board : (board = fakeBoard(kind))),
    finished: (kind) => new Set(finished.get(kind) || []),
    markFinished: (kind, id) => { const s = new Set(finished.get(kind) || []); s.add(id); finished.set(kind, s); return s; },
    firstGame: (level, kind) => played.push([level, kind]),
  } }, () => { draws++; });
  p.loaded('oware', LESSONS);
  return { p, st: p.state, board: () => board, finished, draws: () => draws, played };
}

test('a move step: a listed wrong move says why, the goal met solves it', () => {
  const { p, st, board } = panel();
  p.openLesson(0);
  const step = LESSONS[0].steps[0];
  assert.equal(st.lesson, 0);
  assert.equal(st.solved, false);
  assert.deepEqual(board().shown.pits, step.position.pits);
  const wrong = step.wrong[0];
  p.tryMove(wrong.move);
  assert.deepEqual(st.feedback, { kind: 'wrong', text: wrong.why.en });
  assert.equal(st.solved, false);
  p.tryMove(step.answers[0]);
  assert.equal(st.solved, true);
  assert.equal(st.feedback.kind, 'done');
  assert.deepEqual(board().sown, [step.answers[0]]);
  // Solved: nothing more is played.
  p.tryMove(step.answers[0]);
  assert.deepEqual(board().sown, [step.answers[0]]);
});

test('a legal move that misses the goal says what it misses; an illegal one why', () => {
  const { p, st } = panel();
  p.openLesson(0);
  const step = LESSONS[0].steps[0];
  const legal = p.state.game.state().legal;
  const other = legal.find((m) => !step.answers.includes(m) && !step.wrong.some((w) => w.move === m));
  if (other) {
    p.tryMove(other);
    assert.equal(st.feedback.kind, 'wrong');
    assert.ok(st.feedback.text.length > 0);
  }
  const illegal = 'abcdefABCDEF'.split('').find((m) => !legal.includes(m) && !step.wrong.some((w) => w.move === m));
  p.tryMove(illegal);
  assert.equal(st.feedback.kind, 'wrong');
  assert.equal(st.solved, false);
});

test("the keys pick a pit of the side to move, as on the game screen", () => {
  const { p, st, board } = panel();
  p.openLesson(0);
  const step = LESSONS[0].steps[0];
  const key = step.position.turn === 'south' ? step.answers[0] : step.answers[0].toLowerCase();
  assert.equal(p.key('9'), false, 'not an Oware key');
  assert.equal(p.key(key), true);
  assert.equal(st.solved, true);
  assert.deepEqual(board().sown, [step.answers[0]]);
  assert.equal(p.key(key), false, 'solved: the keys rest');
});

test('a question answered; the lesson finished is kept, the next one opened', () => {
  const { p, st, finished } = panel();
  p.openLesson(1);
  p.next();
  assert.equal(st.step, 1);
  const q = LESSONS[1].steps[1];
  const wrong = q.options.findIndex((o) => !o.correct);
  const right = q.options.findIndex((o) => o.correct);
  p.answer(wrong);
  assert.deepEqual([st.chosen, st.solved, st.feedback.kind], [wrong, false, 'wrong']);
  // The wrong answer's own explanation, not one line for all.
  assert.equal(st.feedback.text, q.options[wrong].why.en);
  p.answer(right);
  assert.deepEqual([st.chosen, st.solved, st.feedback.kind], [right, true, 'done']);
  while (st.lesson === 1) p.next();
  assert.ok(finished.get('oware').has(LESSONS[1].id));
  assert.ok(st.done.has(LESSONS[1].id));
  assert.equal(st.lesson, 2);
  assert.equal(st.step, 0);
});

test('back to the list: the keys and the board rest', () => {
  const { p, st } = panel();
  p.openLesson(0);
  p.toList();
  assert.equal(st.lesson, -1);
  assert.equal(p.key('a'), false);
  p.tryMove('a');
  assert.equal(st.feedback, null);
});

test("a question about a game's end shows the position as sown, not the pits emptied at the end", async () => {
  const { p, board } = panel();
  const n = LESSONS.findIndex((l) => l.id === 'ending');
  p.openLesson(n);
  p.next();
  const q = LESSONS[n].steps[1];
  assert.ok(q.moves && q.check.over, 'the step asks about the end its moves bring');
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(board().sown, q.moves);
  const shown = board().shown;
  // North's F sowed its last seed into a: a 1, b 2, North's row empty, 21 and 24 in the stores.
  assert.deepEqual(shown.pits, [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(shown.captured, { south: 21, north: 24 });
  assert.equal(shown.over, true);
});
