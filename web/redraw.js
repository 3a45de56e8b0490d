// redraw.js: the one way to ask for the screen to be drawn again. Modules
// change the state, then call requestRedraw(); app.js names the draw pass
// (render.js's renderAll) once at start.
let draw = () => {};
const afterHooks = [];

// app.js: the draw pass.
export function setDraw(fn) { draw = fn; }

// fn() runs at the end of every draw pass (local.js: the computer's turn).
export function afterRender(fn) { afterHooks.push(fn); }

export function requestRedraw() {
  if (draw() === false) return;  // nothing to draw yet
  afterHooks.forEach((fn) => fn());
}
