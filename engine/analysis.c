/* analysis.c: one ply of a game judged by the search (see analysis.h). */
#include "engine/analysis.h"

static int clamp_cap(int v)
{
	return v > OW_ANALYSIS_CAP ? OW_ANALYSIS_CAP
	       : v < -OW_ANALYSIS_CAP ? -OW_ANALYSIS_CAP : v;
}

int ow_analysis_proven(int score)
{
	if (score > OW_SEARCH_WON)
		return OW_SEARCH_WIN - score;
	if (score < -OW_SEARCH_WON)
		return -(OW_SEARCH_WIN + score);
	return 0;
}

int ow_analysis_south(int score, int side)
{
	int v = clamp_cap(score);

	return side == OW_SOUTH ? v : -v;
}

int ow_analysis_class(int loss, int is_best)
{
	if (is_best || loss <= 0)
		return OW_CLASS_BEST;
	if (loss < OW_ANALYSIS_GOOD)
		return OW_CLASS_GOOD;
	if (loss < OW_ANALYSIS_INACCURACY)
		return OW_CLASS_INACCURACY;
	if (loss < OW_ANALYSIS_MISTAKE)
		return OW_CLASS_MISTAKE;
	return OW_CLASS_BLUNDER;
}

const char *ow_class_name(int cls)
{
	switch (cls) {
	case OW_CLASS_BEST: return "best";
	case OW_CLASS_GOOD: return "good";
	case OW_CLASS_INACCURACY: return "inaccuracy";
	case OW_CLASS_MISTAKE: return "mistake";
	case OW_CLASS_BLUNDER: return "blunder";
	}
	return "";
}

/* The value for the mover of the move that led to after, from a search of
 * after (the opponent to move): negated, and a proven end one ply further
 * away from the mover's position. */
static int from_child(int score)
{
	if (score > OW_SEARCH_WON)
		return -(score - 1);
	if (score < -OW_SEARCH_WON)
		return -(score + 1);
	return -score;
}

/* The value for the mover of a game that the move just ended (one ply
 * from the position searched, as the search scores an end). */
static int end_score(const ow_game *after, int mover)
{
	if (after->winner == OW_DRAW)
		return 0;
	return after->winner == mover ? OW_SEARCH_WIN - 1 : -(OW_SEARCH_WIN - 1);
}

int ow_analyse_ply(const ow_game *g, int pit, const ow_search_limits *lim,
                   ow_tt_entry *tt, size_t n, ow_ply_analysis *out)
{
	ow_search_limits one = *lim;
	ow_search_result r, c;
	ow_ply_analysis a;
	ow_game after = *g;
	int rc, mover = g->pos.turn;
	unsigned mask;

	if (g->end != OW_END_NONE)
		return OW_E_OVER;
	if ((rc = ow_game_play(&after, pit, 0)) != OW_OK)
		return rc;
	/* With one legal move the search stops at depth 1 unless a depth is
	 * asked: ask for all, the budget still bounds it, so that a forced
	 * move gets a real evaluation. */
	mask = ow_legal_mask(&g->pos);
	if (!(mask & (mask - 1)) && !one.depth)
		one.depth = OW_SEARCH_MAX_DEPTH;
	if ((rc = ow_search(g, &one, tt, n, &r)) != OW_OK)
		return rc;
	a.side = mover;
	a.move = pit;
	a.best = r.move;
	a.before = r.score;
	a.depth = r.depth;
	a.nodes = r.nodes;
	a.npv = r.npv;
	for (int i = 0; i < r.npv; i++)
		a.pv[i] = r.pv[i];
	if (pit == r.move) {
		a.after = r.score;
	} else if (after.end != OW_END_NONE) {
		a.after = end_score(&after, mover);
	} else {
		ow_search_limits cl = *lim;

		cl.depth = r.depth > 1 ? r.depth - 1 : 1;
		if (ow_search(&after, &cl, tt, n, &c) != OW_OK)
			return OW_E_OVER; /* cannot happen: after is not over */
		a.after = from_child(c.score);
		a.nodes += c.nodes;
	}
	a.loss = clamp_cap(a.before) - clamp_cap(a.after);
	if (a.loss < 0 || pit == r.move)
		a.loss = 0;
	a.cls = ow_analysis_class(a.loss, pit == r.move);
	*out = a;
	return OW_OK;
}
