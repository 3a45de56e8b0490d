/* oware_internal.h: the end-of-game rules of docs/rules-oware.md in one place,
 * for oware.c (games, perft) and search.c; not public API, so oware.h stays
 * the contract. static inline: the search and perft check every node.
 *
 * A history is an array of ow_pos_key keys: seen[base] the first position
 * since the last capture, seen[top] the position checked (no earlier one
 * can recur, since a capture changes the seeds on the board). */
#ifndef OW_OWARE_INTERNAL_H
#define OW_OWARE_INTERNAL_H

#include "engine/oware.h"

/* The key of ow_game.seen: the side to move in bit 0, pits 0..5 as one
 * number in base 49 (< 2^34) from bit 1, pits 6..10 (< 2^29) from bit
 * 35. Pit 11 is left out: it is the seeds on the board less the others,
 * and every position of one history has the same seeds on the board. */
static inline uint64_t ow__hkey(const ow_pos *p)
{
	uint64_t a = 0, b = 0, w = 1;

	for (int i = 0; i < OW_ROW; i++, w *= 49)
		a += p->pits[i] * w;
	w = 1;
	for (int i = OW_ROW; i < OW_PITS - 1; i++, w *= 49)
		b += p->pits[i] * w;
	return (uint64_t)p->turn | a << 1 | b << 35;
}

/* The pits and side to move of hkey h in a history of board seeds on
 * the board, into *p (its scores untouched). */
static inline void ow__hkey_pos(uint64_t h, int board, ow_pos *p)
{
	uint64_t a = (h >> 1) & ((1ull << 34) - 1), b = h >> 35;
	int left = board;

	p->turn = (uint8_t)(h & 1);
	for (int i = 0; i < OW_ROW; i++, a /= 49)
		left -= p->pits[i] = (uint8_t)(a % 49);
	for (int i = OW_ROW; i < OW_PITS - 1; i++, b /= 49)
		left -= p->pits[i] = (uint8_t)(b % 49);
	p->pits[OW_PITS - 1] = (uint8_t)left;
}

/* The seeds on p's board. */
static inline int ow__board(const ow_pos *p)
{
	int n = 0;

	for (int i = 0; i < OW_PITS; i++)
		n += p->pits[i];
	return n;
}

/* Nonzero when p ends the game by score: 25 or more, or 24-24. */
static inline int ow__score_over(const ow_pos *p)
{
	int s = p->captured[OW_SOUTH], n = p->captured[OW_NORTH];

	return s >= OW_WIN_SCORE || n >= OW_WIN_SCORE || (s == 24 && n == 24);
}

/* Occurrences of seen[top] among seen[base..top]: same side to move means
 * the same parity of distance, so only every other entry can match. */
static inline int ow__occurrences(const struct ow_key *seen, int top, int base)
{
	int count = 0;

	for (int i = top; i >= base; i -= 2)
		if (seen[i].lo == seen[top].lo && seen[i].hi == seen[top].hi)
			count++;
	return count;
}

/* The ow_pos_key keys of g's history (g->seen), into keys[0..g->nseen). */
void ow__history_keys(const ow_game *g, struct ow_key *keys);

/* The end conditions after score and repetition, in the order of
 * docs/rules-oware.md. */
static inline ow_end ow__end_rest(const ow_pos *p, int quiet, unsigned *mask)
{
	if (quiet >= OW_MOVE_LIMIT)
		return OW_END_MOVE_LIMIT;
	*mask = ow_legal_mask(p);
	return *mask ? OW_END_NONE : OW_END_NO_MOVES;
}

/* The first end condition, in the order of docs/rules-oware.md, that p meets
 * with the history seen[base..top] (seen[top] is p's key) and quiet plies
 * since the last capture; OW_END_NONE if none. Sets *mask to p's legal moves
 * unless the game ended before the last check (score, repetition, move limit).
 * A third occurrence lies at least 4 plies after the first. */
static inline ow_end ow__end_of(const ow_pos *p, const struct ow_key *seen,
                                int top, int base, int quiet, unsigned *mask)
{
	if (ow__score_over(p))
		return OW_END_SCORE;
	if (top - base >= 4 && ow__occurrences(seen, top, base) >= 3)
		return OW_END_REPETITION;
	return ow__end_rest(p, quiet, mask);
}

/* Settles p for a game that ended by why: unless by score, each side adds
 * the seeds of its own row to its score and the board is cleared. Returns
 * the winner by score (ow_winner: more wins, equal is a draw). */
static inline ow_winner ow__settle(ow_pos *p, ow_end why)
{
	int s, n;

	if (why != OW_END_SCORE) {
		for (int i = 0; i < OW_PITS; i++) {
			p->captured[i / OW_ROW] = (uint8_t)(p->captured[i / OW_ROW] + p->pits[i]);
			p->pits[i] = 0;
		}
	}
	s = p->captured[OW_SOUTH];
	n = p->captured[OW_NORTH];
	return s > n ? OW_WINNER_SOUTH : n > s ? OW_WINNER_NORTH : OW_DRAW;
}

#endif
