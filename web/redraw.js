// redraw.js: the one way to ask for the screen to be drawn again. Modules
// change the state through their intents, then call requestRedraw(): the
// draw pass (render.js's renderAll, named once by app.js) runs once, in a
// microtask, however many asked before it. It reads the state and writes
// only the page.
// @ts-check
let draw = () => {};
let asked = false;

// app.js: the draw pass.
export function setDraw(fn) { draw = fn; }

export function requestRedraw() {
  if (asked) return;
  asked = true;
  queueMicrotask(() => {
    asked = false;
    draw();
  });
}
