// name-check.js: the words a name may not read as (name-words.js, made
// from the language files as the server's lists are): a side's name in
// any form the page shows, and a club event's words. names.js loads it
// with the first name there is to check, event.js with the event page;
// a first visit carries none of it.
// @ts-check
import { SIDE_WORDS, EVENT_WORDS, EVENT_SUFFIXES } from './name-words.js';

// A name as this check reads it: compatibility letters, no marks, no case,
// no white space, punctuation or symbols (the server reads look-alikes
// from other scripts too: PROTOCOL.md, "Names and chat").
const reading = (/** @type {string} */ s) =>
  s.normalize('NFKD').toLowerCase().replace(/[\p{M}\p{P}\p{S}\p{Z}\s\p{Cf}]/gu, '');

const SIDES = new Set(SIDE_WORDS.map(reading));
const EVENT = new Set(EVENT_WORDS.map(reading));
const SUFFIXES = EVENT_SUFFIXES.map(reading);

// True when name reads as a side's name.
export const sideWord = (/** @type {string} */ name) => SIDES.has(reading(name));

// True when a club event would refuse name (a cleanName) as a word of its
// page, protocol or exports (`name_reserved`, docs/events.md): a result,
// bye, forfeit, withdrawal or the organiser ("bye", "Draw", "1-0"), a name
// ending as the page marks a withdrawn player ("Ama (withdrawn)"), or one
// with nothing to read ("?"). The server reads look-alikes too.
export function eventWord(/** @type {string} */ name) {
  const r = reading(name);
  return r === '' || EVENT.has(r) || SUFFIXES.some((x) => x && r.length > x.length && r.endsWith(x));
}
