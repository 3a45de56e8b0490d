// ai-worker.js: the computer player off the page's thread. Message in:
// {id, moves, level, seed, timeMs}; message out: {id, move} (a letter, or
// null when the game is over) or {id, error}.
import { loadEngine, replay } from './engine.js';

const ready = loadEngine();

self.addEventListener('message', async (ev) => {
  const { id, moves, level, seed, timeMs } = ev.data;
  try {
    await ready;
    const g = replay(moves);
    self.postMessage({ id, move: g.bestMove(level, { seed, timeMs }) });
  } catch (e) {
    self.postMessage({ id, error: String(e && e.message ? e.message : e) });
  }
});
