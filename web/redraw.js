// redraw.js: the one way to ask for the screen to be drawn again. Modules
// change the state through their intents, then call requestRedraw(): the
// draw pass (render.js's renderAll, named once by app.js) runs once, in a
// microtask, however many asked before it. It reads the state and writes
// only the page. What must follow a draw and may not be done in it (the
// keyboard's focus moved off a pit that stopped responding: a focused pit
// shows its preview, a change of state) runs after it, as its own step.
// @ts-check
let draw = () => {};
let after = () => {};
let asked = false;

// app.js: the draw pass, and the step that follows it.
/** @param {() => void} fn @param {() => void} [then] */
export function setDraw(fn, then = () => {}) {
  draw = fn;
  after = then;
}

export function requestRedraw() {
  if (asked) return;
  asked = true;
  queueMicrotask(() => {
    asked = false;
    draw();
    after();
  });
}
