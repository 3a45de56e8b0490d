// record.js: the record card: the move list, the review bar and the record's copy and download: drawn, and wired to review.js and study.js.
import { $ } from './ui.js';
import { model, shownPly } from './model.js';
import { t } from './i18n.js';
import { seatName, displayName } from './names.js';
import { analysedPly, MARKS } from './analysis.js';
import { reviewTo, reviewStep } from './review.js';
import { copyRecord, downloadRecord } from './study.js';

export function drawRecord(f) {
  const { st } = f;
  drawMoves(f);
  // The move list's header names the players, when they gave names.
  const named = (f.online || model.mode === 'record') && (seatName('south') || seatName('north'));
  $('record-players').hidden = !named;
  if (named) $('record-players').textContent = t('moves.players', { south: displayName('south'), north: displayName('north') });
  $('review').hidden = !(f.reviewable && st.moves.length > 0);
  if (!$('review').hidden) {
    const at = shownPly();
    $('rv-first').disabled = $('rv-prev').disabled = at === 0;
    $('rv-next').disabled = $('rv-last').disabled = at === st.moves.length;
    $('review-pos').textContent = at === 0 ? t('review.start') : t('review.position', { n: at, total: st.moves.length });
  }
  $('record-copy').hidden = st.moves.length === 0;
  // The .ogn download is Oware's (Togyz records are copied as text).
  $('record-download').hidden = st.moves.length === 0 || !model.timeline || model.timeline.kind === 'togyz';
}

function drawMoves(f) {
  const { st } = f;
  const items = [];
  const hist = model.timeline ? model.timeline.history : [];
  const current = shownPly();
  for (let i = 0; i < st.moves.length; i += 2) {
    const li = document.createElement('li');
    for (let k = i; k < Math.min(i + 2, st.moves.length); k++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv';
      b.dataset.ply = String(k + 1);
      const info = hist[k];
      // Togyz: the Kazakh notation ("76", "58X"); Oware: the letter and its capture.
      if (info && info.notation) b.textContent = info.notation + (info.seeds ? ` +${info.seeds}` : '');
      else b.textContent = st.moves[k] + (info && info.seeds ? ` +${info.seeds}` : '');
      if (info && info.tuzdyk) b.classList.add('tuzdyk');
      if (info && info.grand_slam) b.classList.add('slam');
      // The analysis's judgement: ?! ? ?? (and said to screen readers).
      const an = analysedPly(k + 1);
      const mark = an && MARKS[an.class];
      if (mark) {
        const m = document.createElement('span');
        m.className = `an-mark an-${an.class}`;
        m.textContent = mark;
        m.title = t(`an.class.${an.class}`);
        const sr = document.createElement('span');
        sr.className = 'sr-only';
        sr.textContent = ` (${t(`an.class.${an.class}`)})`;
        b.append(m, sr);
      }
      if (k + 1 === current) b.setAttribute('aria-current', 'step');
      b.disabled = !f.reviewable;
      li.appendChild(b);
    }
    items.push(li);
  }
  $('moves').replaceChildren(...items);
  $('moves-none').hidden = st.moves.length > 0;
}

export function wireRecord() {
  $('rv-first').addEventListener('click', () => reviewTo(0));
  $('rv-prev').addEventListener('click', () => reviewStep(-1));
  $('rv-next').addEventListener('click', () => reviewStep(1));
  $('rv-last').addEventListener('click', () => reviewTo(model.state.moves.length));
  $('moves').addEventListener('click', (ev) => {
    const b = ev.target.closest('button.mv');
    if (b && !b.disabled) reviewTo(Number(b.dataset.ply));
  });
  $('record-copy').addEventListener('click', copyRecord);
  $('record-download').addEventListener('click', downloadRecord);
}
