// hooks.js: the one place where the page meets its browser tests: the
// object window.owareTest, made here and sealed. What it holds:
//
//   ready    true once the page has opened its first screen (app.js);
//            tests wait for it before they act (tests/browser/lib.mjs).
//   sounds   the names of the sounds the room played, in order ('move',
//            'capture', 'joined', 'offer', 'chat', 'end'; alerts.js), also
//            where the browser keeps audio locked; none while muted.
//   beeps    how many low-time beeps the clock gave (clock.js).
//   stallMs  set by a test before the page loads (page.addInitScript:
//            window.owareTest = { stallMs: 1500 }): how long an action may
//            go unanswered before the socket is given up (net.js's
//            STALL_MS otherwise).
//
// Nothing else in web/ touches window for the tests.
// @ts-check
const given = (typeof window !== 'undefined' && /** @type {any} */ (window).owareTest) || {};

export const hooks = Object.seal({
  ready: false,
  sounds: [],
  beeps: 0,
  stallMs: Number(given.stallMs) > 0 ? Number(given.stallMs) : null,
});

if (typeof window !== 'undefined') /** @type {any} */ (window).owareTest = hooks;
