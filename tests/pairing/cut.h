/* cut.h: what pair_trf and pair_diff share. */
#ifndef TESTS_PAIRING_CUT_H
#define TESTS_PAIRING_CUT_H

#include "server/rules/pairing.h"

/* Keeps of ev what was known when round `round` (1-based) was paired: the
 * rounds before it, and a round's entry made ahead of its pairing (a bye
 * asked for, an absence: 'H' 'F' 'Z' without an opponent). */
static inline void cut_to_round(pair_event *ev, int round)
{
	for (int i = 0; i < ev->nplayers; i++) {
		pair_player *pl = &ev->p[i];
		if (pl->nrounds >= round) {
			const pair_game *g = &pl->rounds[round - 1];
			int ahead = g->opp < 0 && (g->result == 'H' || g->result == 'F' || g->result == 'Z');
			pl->nrounds = ahead ? round : round - 1;
		}
	}
}

#endif
