/* search.c: iterative-deepening negamax alpha-beta (PVS) with a
 * transposition table, TT-move/capture/killer/history ordering, a
 * quiescence search of captures at the leaves and the evaluation of
 * ow_search_eval. See search.h for the contracts.
 *
 * Why it is not one negamax with engine/togyz_search.c (what the two
 * share is in search_common.[ch]: budgets, the line, killers, the table's
 * forced scores, the levels, iterative deepening): Oware's rules end a
 * game by the line's history (a third repetition, 160 plies without a
 * capture), so this tree carries the keys since the last capture, the
 * twice flag and path_ends, and its table neither cuts where that history
 * may decide nor stores a value it decided (docs/computer.md, "Endings");
 * Togyz Kumalak has no such end, and every table value holds there. The
 * pruning differs with it: here a quiescence search of captures at the
 * leaves (58.5% to 66.8% at equal nodes for Oware, docs/computer.md), the
 * endgame database at the leaves and inside the tree, and reductions of
 * two plies for the latest quiet moves; for Togyz Kumalak a capture
 * search measured as a loss (47.5%) and it reduces by one ply. One
 * generic negamax would put these branches in every node of both games'
 * hottest loop. */
#include "engine/search.h"
#include "engine/oware_internal.h"
#include "engine/search_common.h"

_Static_assert(OW_SEARCH_MAX_DEPTH == OW__MAX_PLY && OW_SEARCH_WIN == OW__SEARCH_WIN &&
               OW_SEARCH_WON == OW__SEARCH_WON && OW_SEARCH_SEED == OW__SEARCH_SEED &&
               OW_LEVEL_EASY == OW__LEVEL_EASY && OW_LEVEL_MEDIUM == OW__LEVEL_MEDIUM &&
               OW_LEVEL_HARD == OW__LEVEL_HARD && OW_ROW <= OW__MAX_MOVES &&
               OW_LEVEL_LADDER == OW__LEVEL_LADDER,
               "search_common.h's constants are Oware's");

#define MAX_PLY OW_SEARCH_MAX_DEPTH
#define INF (OW_SEARCH_WIN + 1)
/* The table is not used one ply above the leaves: a probe there costs a
 * cache miss and saves little (20% less time to depth 19 for 6% more
 * nodes, measured from 15 openings). */
#ifndef TT_MIN_DEPTH
#define TT_MIN_DEPTH 2
#endif
/* Late-move reductions: from the LMR_MOVES-th move (0-based), at depth
 * LMR_DEPTH and more. */
#ifndef LMR_MOVES
#define LMR_MOVES 2
#endif
#ifndef LMR_DEPTH
#define LMR_DEPTH 3
#endif

/* Bound kinds stored in a table entry. */
enum { B_NONE = 0, B_EXACT = 1, B_LOWER = 2, B_UPPER = 3 };

/* Table keys: ow_pos_key (pits, side to move; its hi holds pits 10 and 11
 * in 12 bits) plus south's score above them (north's follows from the
 * seeds left), so a table hit is exact. */
#define KEY_HI(k, p) ((uint32_t)(k).hi | (uint32_t)(p)->captured[OW_SOUTH] << 12 | 0x80000000u)

/* All of one search; lives on the stack of ow_search. */
struct srch {
	struct ow__search c; /* budgets, line, killers (search_common.h) */
	const ow_game *g;    /* the root */
	const ow_search_limits *lim;
	const ow_eval_weights *eval;
	const ow_egdb *egdb;
	int egdb_seeds;  /* most seeds on the board it holds; -1 without one */
	ow_tt_entry *tt;
	size_t tt_mask; /* entries - 1, or 0 with no table (tt == NULL) */
	/* Ends whose value depends on the game's history (repetition, the
	 * move limit) seen so far: a node whose subtree met one is not stored
	 * in the table, which is keyed by the position alone. */
	uint32_t path_ends;
	int root_twice;  /* a position before the root occurred twice */
	/* pit_value(eval, r, i, n) for every row, pit and count of seeds */
	int16_t pit_value[2][OW_ROW][OW_SEEDS + 1];
	/* Positions since the last capture before the root, then one per ply. */
	struct ow_key stack[OW_HISTORY + MAX_PLY + 2];
	uint32_t history[2][OW_PITS];
};

static size_t key_hash(uint64_t lo, uint32_t hi)
{
	uint64_t h = lo ^ ((uint64_t)hi * 0xd6e8feb86659fd93ull);

	h ^= h >> 32;
	h *= 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	return (size_t)h;
}

void ow_tt_clear(ow_tt_entry *tt, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tt[i].lo = 0;
		tt[i].hi = 0;
		tt[i].score = 0;
		tt[i].depth = 0;
		tt[i].info = 0;
	}
}

/* Entries come in pairs: [0] keeps the deepest, [1] the latest. hi has
 * bit 31 set (KEY_HI) so that an all-zero entry is empty. */
static ow_tt_entry *tt_probe(struct srch *s, uint64_t lo, uint32_t hi)
{
	ow_tt_entry *e;

	if (!s->tt)
		return 0;
	e = &s->tt[key_hash(lo, hi) & s->tt_mask & ~(size_t)1];
	for (int i = 0; i < 2; i++)
		if (e[i].lo == lo && e[i].hi == hi)
			return &e[i];
	return 0;
}

static void tt_store(struct srch *s, uint64_t lo, uint32_t hi, int depth,
                     int bound, int move, int score)
{
	ow_tt_entry *e;

	if (!s->tt)
		return;
	e = &s->tt[key_hash(lo, hi) & s->tt_mask & ~(size_t)1];
	if (!(e[0].lo == lo && e[0].hi == hi) && e[0].depth > depth)
		e++;
	e->lo = lo;
	e->hi = hi;
	e->score = (int16_t)score;
	e->depth = (uint8_t)depth;
	e->info = (uint8_t)((move & 15) | bound << 4);
}

/* Win scores, forced or decided by the endgame database, beyond this
 * count plies from the root (ow__score_to_tt). */
#define DECIDED (OW_SEARCH_EGDB - 1000)

/* The value for the side to move of p, a game that ended by why. */
static int end_value(const ow_pos *p, int ply, ow_end why)
{
	ow_pos q = *p;
	ow_winner w = ow__settle(&q, why);

	if (w == OW_DRAW)
		return 0;
	return w == (ow_winner)p->turn ? OW_SEARCH_WIN - ply : -(OW_SEARCH_WIN - ply);
}

const ow_eval_weights ow_eval_default = {
	.table = {
		{ /* the mover's row */
			{-48, -23, -11, 7, 12, 13, 3, 6, 4, 0, -2, -3, -3, 2, 3, 13},
			{-37, -13, 1, 12, 13, 6, 3, -1, -1, -11, -19, -15, -6, 0, 10, 29},
			{-32, -9, 2, 9, 3, 5, -2, -1, -8, -16, -19, -7, -5, 13, 24, 12},
			{-23, -4, 3, 3, 4, -4, -7, -7, -13, -17, -8, -4, 6, 19, 15, 8},
			{-21, -5, -4, 1, -5, -8, -12, -15, -16, -12, -5, 4, 19, 17, 23, 8},
			{-19, -12, -7, -7, -9, -16, -17, -18, -16, -9, 7, 23, 16, 21, 32, 2},
		},
		{ /* the opponent's row */
			{43, 14, 0, -10, -15, -11, -14, -10, -8, -4, 5, 8, 9, -1, -8, -29},
			{35, 8, -1, -13, -15, -10, -4, -5, -2, 3, 7, 9, 7, 1, -11, -39},
			{31, 7, -1, -9, -6, -8, -4, 0, 3, 9, 13, 10, 3, -2, -21, -54},
			{25, 6, -1, -4, -4, 0, 3, 7, 11, 15, 12, 6, -3, -16, -34, -52},
			{23, 6, 1, -4, -2, 5, 9, 12, 16, 16, 5, -2, -14, -34, -39, -27},
			{26, 12, 5, 8, 9, 12, 19, 25, 18, 12, 2, -15, -29, -49, -57, -28},
		},
	},
};

const ow_eval_weights ow_eval_classic = {
	.held = 2, .target = 6, .kroo = 0, .empty = -16,
};

/* The value that pit i of row r (0 the mover's, 1 the opponent's) holding
 * n seeds adds to the evaluation under w. */
static int pit_value(const ow_eval_weights *w, int r, int i, int n)
{
	int t = w->held * n + w->target * (n == 1 || n == 2) + w->kroo * (n >= 12) +
	        w->empty * (n == 0);

	return (r ? -t : t) + w->table[r][i][n > 15 ? 15 : n];
}

int ow_search_eval(const ow_pos *p, const ow_eval_weights *w)
{
	int me = p->turn, v;

	if (!w)
		w = &ow_eval_default;
	v = OW_SEARCH_SEED * (p->captured[me] - p->captured[1 - me]);
	for (int i = 0; i < OW_ROW; i++)
		v += pit_value(w, 0, i, p->pits[me * OW_ROW + i]) +
		     pit_value(w, 1, i, p->pits[(1 - me) * OW_ROW + i]);
	return v;
}

/* ow_search_eval with s's table of pit values. */
static int eval(const struct srch *s, const ow_pos *p)
{
	int me = p->turn, v = OW_SEARCH_SEED * (p->captured[me] - p->captured[1 - me]);
	const uint8_t *mine = p->pits + me * OW_ROW, *theirs = p->pits + (1 - me) * OW_ROW;

	for (int i = 0; i < OW_ROW; i++)
		v += s->pit_value[0][i][mine[i]] + s->pit_value[1][i][theirs[i]];
	return v;
}

/* The value of p from the endgame database (see search.h), or INF when it
 * has none (or, with exact_only, when its value is an estimate). */
static int egdb_value(const struct srch *s, const ow_pos *p, int ply, int quiet,
                      int exact_only)
{
	int me = p->turn, on = OW_SEEDS - p->captured[0] - p->captured[1];
	int v, exact, margin;

	if (on > s->egdb_seeds)
		return INF;
	v = ow_egdb_probe(s->egdb, p, quiet, &exact);
	if (v < 0)
		return INF;
	margin = p->captured[me] + v - (p->captured[1 - me] + on - v);
	if (!exact)
		return exact_only ? INF : OW_SEARCH_SEED * margin;
	if (!margin)
		return 0;
	return margin > 0 ? OW_SEARCH_EGDB + OW_SEARCH_SEED * margin - ply
	                  : -(OW_SEARCH_EGDB - OW_SEARCH_SEED * margin - ply);
}

/* Quiescence: the value of a leaf p (not over, quiet plies short of the
 * limit) once the captures open to the side to move are played out: the
 * mover may stand on the evaluation, or take; each capture leaves fewer
 * seeds on the board, so the line ends. Repetition and the move limit
 * cannot end it (every move captures). */
static int qsearch(struct srch *s, ow_pos *p, int ply, int alpha, int beta,
                   int quiet)
{
	ow_pos child[OW_ROW];
	int gain[OW_ROW], n = 0, me = p->turn, opp = (1 - me) * OW_ROW, best;
	unsigned mask;

	best = egdb_value(s, p, ply, quiet, 0);
	if (best != INF)
		return best;
	best = eval(s, p);
	if (best >= beta || ply >= MAX_PLY)
		return best;
	mask = ow_legal_mask(p);
	while (mask) {
		int m = __builtin_ctz(mask), k = p->pits[m], last = (m + k) % OW_PITS;

		mask &= mask - 1;
		/* Fewer than 12 seeds: one lap at most, and the last pit
		 * gets one seed; it takes only from 1 or 2 in the opponent's
		 * row. */
		if (k < OW_PITS && (last < opp || last >= opp + OW_ROW ||
		                    p->pits[last] < 1 || p->pits[last] > 2))
			continue;
		child[n] = *p;
		ow_pos_sow(&child[n], m, 0);
		gain[n] = child[n].captured[me] - p->captured[me];
		if (gain[n])
			n++;
	}
	if (alpha < best)
		alpha = best;
	while (n) {
		int b = 0, v;

		for (int i = 1; i < n; i++)
			if (gain[i] > gain[b])
				b = i;
		if (ow__out_of_budget(&s->c)) {
			s->c.stopped = 1;
			return 0;
		}
		s->c.nodes++;
		if (ow__score_over(&child[b]))
			v = -end_value(&child[b], ply + 1, OW_END_SCORE);
		else if (!ow_legal_mask(&child[b]))
			v = -end_value(&child[b], ply + 1, OW_END_NO_MOVES);
		else
			v = -qsearch(s, &child[b], ply + 1, -beta, -alpha, 0);
		if (s->c.stopped)
			return 0;
		if (v > best) {
			best = v;
			if (v > alpha)
				alpha = v;
			if (v >= beta)
				break;
		}
		child[b] = child[n - 1];
		gain[b] = gain[n - 1];
		n--;
	}
	return best;
}

/* Negamax value of p (not yet checked for the end of the game) searched to
 * depth plies, ply plies below the root; stack[top] is p's key, stack[base]
 * the first position since the last capture; quiet counts plies since the
 * last capture; twice is nonzero when some position of stack[base..top-1]
 * has occurred twice there (its third occurrence would end the game, so the
 * table's values, computed without that history, may be wrong here). Fills
 * s->c.pv[ply]. */
static int negamax(struct srch *s, ow_pos *p, int depth, int ply, int alpha,
                   int beta, int top, int base, int quiet, int twice)
{
	ow_pos child[OW_ROW];
	int pit[OW_ROW], order[OW_ROW], gain[OW_ROW], idx[OW_ROW];
	int n = 0, me = p->turn, best = -INF, best_move = -1, bound, tt_move = -1;
	int alpha0 = alpha, occ = 1;
	unsigned mask;
	uint32_t ends0 = s->path_ends;
	uint64_t klo = s->stack[top].lo;
	uint32_t khi = KEY_HI(s->stack[top], p);
	ow_tt_entry *e;

	s->c.pvlen[ply] = 0;
	if (ow__out_of_budget(&s->c)) {
		s->c.stopped = 1;
		return 0;
	}
	s->c.nodes++;
	/* The end conditions of ow__end_of, in its order, keeping the count of
	 * occurrences for the twice flag. */
	if (ow__score_over(p))
		return end_value(p, ply, OW_END_SCORE);
	if (top - base >= 4 && (occ = ow__occurrences(s->stack, top, base)) >= 3) {
		s->path_ends++;
		return end_value(p, ply, OW_END_REPETITION);
	}
	if (quiet >= OW_MOVE_LIMIT) {
		s->path_ends++;
		return end_value(p, ply, OW_END_MOVE_LIMIT);
	}
	mask = ow_legal_mask(p);
	if (!mask)
		return end_value(p, ply, OW_END_NO_MOVES);
	twice |= occ >= 2;
	/* Inside the tree too, an exact value of the database ends the line,
	 * unless the line's history may end the game by repetition. */
	if (ply > 0 && !twice && depth > 0) {
		int v = egdb_value(s, p, ply, quiet, 1);

		if (v != INF)
			return v;
	}
	if (depth <= 0 || ply >= MAX_PLY) {
		int v;

		if (!s->lim->no_quiescence)
			return qsearch(s, p, ply, alpha, beta, quiet);
		v = egdb_value(s, p, ply, quiet, 0);
		return v != INF ? v : eval(s, p);
	}

	e = depth >= TT_MIN_DEPTH ? tt_probe(s, klo, khi) : 0;
	if (e) {
		int v = ow__score_from_tt(e->score, ply, DECIDED), b = e->info >> 4;

		tt_move = e->info & 15;
		/* No cut where the history may end the game within reach: near
		 * the move limit, or with a position on the line seen twice. */
		if (ply > 0 && e->depth >= depth && quiet + depth < OW_MOVE_LIMIT &&
		    !twice &&
		    (b == B_EXACT || (b == B_LOWER && v >= beta) ||
		     (b == B_UPPER && v <= alpha)))
			return v;
	}

	/* Children, ordered: table move, captures (bigger first), killers,
	 * history. */
	while (mask) {
		int m = __builtin_ctz(mask), key;

		mask &= mask - 1;
		child[n] = *p;
		ow_pos_sow(&child[n], m, 0);
		pit[n] = m;
		gain[n] = child[n].captured[me] - p->captured[me];
		if (m == tt_move)
			key = 1 << 30;
		else if (gain[n])
			key = (1 << 29) + gain[n];
		else if (m == s->c.killers[ply][0])
			key = (1 << 28) + 1;
		else if (m == s->c.killers[ply][1])
			key = 1 << 28;
		else
			key = (int)(s->history[me][m] >> 4);
		order[n] = key;
		n++;
	}
	ow__order_sort(idx, order, n);

	for (int a = 0; a < n; a++) {
		int i = idx[a], v, nbase = base, nquiet = quiet + 1, ntop = top + 1;
		int ntwice = twice;

		if (gain[i]) {
			nbase = ntop;
			nquiet = 0;
			ntwice = 0; /* no earlier position can recur */
		}
		s->stack[ntop] = ow_pos_key(&child[i]);
		if (a == 0) {
			v = -negamax(s, &child[i], depth - 1, ply + 1, -beta, -alpha,
			             ntop, nbase, nquiet, ntwice);
		} else {
			/* Late moves that capture nothing are first searched
			 * shallower, and again at full depth if they look good. */
			int r = a >= LMR_MOVES && depth >= LMR_DEPTH && !gain[i] &&
			        order[i] < (1 << 28) ? (a >= LMR_MOVES + 2 ? 2 : 1) : 0;

			v = alpha + 1;
			if (r)
				v = -negamax(s, &child[i], depth - 1 - r, ply + 1,
				             -alpha - 1, -alpha, ntop, nbase, nquiet, ntwice);
			if (!s->c.stopped && v > alpha)
				v = -negamax(s, &child[i], depth - 1, ply + 1, -alpha - 1,
				             -alpha, ntop, nbase, nquiet, ntwice);
			if (!s->c.stopped && v > alpha && v < beta)
				v = -negamax(s, &child[i], depth - 1, ply + 1, -beta,
				             -alpha, ntop, nbase, nquiet, ntwice);
		}
		if (s->c.stopped)
			return 0;
		if (v > best) {
			best = v;
			best_move = pit[i];
			if (v > alpha) {
				alpha = v;
				ow__pv_update(&s->c, ply, pit[i], v);
			}
		}
		if (alpha >= beta) {
			if (!gain[i])
				ow__killer(&s->c, ply, pit[i]);
			ow__history_add(s->history[me], OW_PITS, pit[i], depth);
			break;
		}
	}
	bound = best >= beta ? B_LOWER : best > alpha0 ? B_EXACT : B_UPPER;
	/* A value that a repetition or the move limit decided below holds for
	 * this line's history only: the table would give it to every other. */
	if (depth >= TT_MIN_DEPTH && s->path_ends == ends0)
		tt_store(s, klo, khi, depth, bound, best_move,
		         ow__score_to_tt(best, ply, DECIDED));
	return best;
}

/* The ladder's own steps: F_CLASSIC plays with ow_eval_classic, F_LEAVES
 * scores the leaves as they stand (no_quiescence). */
enum { F_CLASSIC = 1, F_LEAVES = 2 };
static const struct ow__step ladder[OW_LADDER_LEVELS] = {
	{-1, 2, 0, OW_SEARCH_SEED, 1000, F_CLASSIC | F_LEAVES, 6 * OW_SEARCH_SEED}, /* starter */
	{OW_LEVEL_EASY, 0, 0, 0, 0, 0, 0},                                  /* easy */
	{-1, 2, 400, 4 * OW_SEARCH_SEED, 250, F_CLASSIC | F_LEAVES, 0},     /* learner */
	{-1, 2, 400, 17 * OW_SEARCH_SEED / 8, 110, F_CLASSIC | F_LEAVES, 0}, /* amateur */
	{-1, 2, 400, OW_SEARCH_SEED / 2, 0, F_CLASSIC | F_LEAVES, 0},      /* improver */
	{-1, 3, 2000, 3 * OW_SEARCH_SEED / 4, 45, F_CLASSIC | F_LEAVES, 0}, /* steady */
	{OW_LEVEL_MEDIUM, 0, 0, 0, 0, 0, 0},                                /* medium */
	{-1, 3, 20000, OW_SEARCH_SEED / 2, 0, 0, 0},                        /* club */
	{-1, 0, 600, 0, 0, 0, 0},                                           /* advanced */
	{-1, 0, 2000, 0, 0, 0, 0},                                          /* strong */
	{-1, 0, 10000, 0, 0, 0, 0},                                         /* expert */
	{-1, 0, 100000, 0, 0, 0, 0},                                        /* master */
	{OW_LEVEL_HARD, 0, 0, 0, 0, 0, 0},
};

int ow_search_level(ow_search_limits *lim, int level, uint32_t seed,
                    ow_clock_fn clock, void *clock_ctx, uint32_t time_ms)
{
	struct ow__limits c;
	ow_search_limits l = {0};
	int legacy, flags = ow__ladder_level(&c, ladder, OW_LADDER_LEVELS, level, seed, clock, clock_ctx,
	                                     time_ms, &legacy);

	if (flags < 0)
		return -1;
	OW__LIMITS_COPY(l, c);
	/* Easy and medium as before issue 18. */
	if (legacy >= 0)
		flags = legacy != OW_LEVEL_HARD ? F_CLASSIC | F_LEAVES : 0;
	if (flags & F_CLASSIC)
		l.eval = &ow_eval_classic;
	l.no_quiescence = !!(flags & F_LEAVES);
	*lim = l;
	return 0;
}

/* ow__game's root: the root at depth with a full window. */
static int root_search(void *ctx, int depth)
{
	struct srch *s = ctx;
	ow_pos p = s->g->pos;

	return negamax(s, &p, depth, 0, -INF, INF, s->g->nseen - 1, 0, s->g->quiet,
	               s->root_twice);
}

/* ow__game's root_moves: every root move with a full window (easy,
 * medium). */
static int root_moves(void *ctx, int depth, struct ow__root_moves *out)
{
	struct srch *s = ctx;
	const ow_game *g = s->g;
	ow_pos p = g->pos;
	int top = g->nseen - 1;
	unsigned mask = ow_legal_mask(&p);

	while (mask) {
		int m = __builtin_ctz(mask), nbase = 0, nquiet = g->quiet + 1, v;
		ow_pos c = p;

		mask &= mask - 1;
		ow_pos_sow(&c, m, 0);
		if (c.captured[p.turn] != p.captured[p.turn]) {
			nbase = top + 1;
			nquiet = 0;
		}
		s->stack[top + 1] = ow_pos_key(&c);
		v = -negamax(s, &c, depth - 1, 1, -INF, INF, top + 1, nbase, nquiet,
		             nbase ? 0 : s->root_twice);
		if (s->c.stopped)
			return -1;
		ow__root_add(&s->c, out, m, v);
	}
	return 0;
}

/* Lengthens r's line from the table where the search's own line stops
 * short (a table hit inside the line ends it), up to r's depth or the end
 * of the game: the best move of each position's entry, while legal. After
 * the search, so its speed is unchanged. */
static void pv_extend(struct srch *s, const ow_game *g, ow_search_result *r)
{
	ow_game h = *g;

	if (!s->tt)
		return;
	for (int i = 0; i < r->npv; i++)
		if (ow_game_play(&h, r->pv[i], 0) != OW_OK)
			return;
	while (r->npv < r->depth && r->npv < MAX_PLY && h.end == OW_END_NONE) {
		struct ow_key k = ow_pos_key(&h.pos);
		ow_tt_entry *e = tt_probe(s, k.lo, KEY_HI(k, &h.pos));

		if (!e || (e->info >> 4) == B_NONE ||
		    ow_game_play(&h, e->info & 15, 0) != OW_OK)
			return;
		r->pv[r->npv++] = (uint8_t)(e->info & 15);
	}
}

int ow_search(const ow_game *g, const ow_search_limits *lim, ow_tt_entry *tt,
              size_t n, ow_search_result *out)
{
	static const struct ow__game game = { root_search, root_moves };
	struct srch s;
	struct ow__limits cl;
	struct ow__result cr;
	unsigned root_mask;

	if (g->end != OW_END_NONE)
		return OW_E_OVER;
	root_mask = ow_legal_mask(&g->pos);
	if (!root_mask)
		return OW_E_OVER;

	OW__LIMITS_COPY(cl, *lim);
	ow__search_init(&s.c, &cl, 0x1234567ull);
	s.g = g;
	s.lim = lim;
	s.eval = lim->eval ? lim->eval : &ow_eval_default;
	s.egdb = lim->egdb;
	s.egdb_seeds = lim->egdb ? lim->egdb->seeds : -1;
	for (int row = 0; row < 2; row++)
		for (int i = 0; i < OW_ROW; i++)
			for (int k = 0; k <= OW_SEEDS; k++)
				s.pit_value[row][i][k] = (int16_t)pit_value(s.eval, row, i, k);
	s.tt = n ? tt : 0;
	s.tt_mask = n ? n - 1 : 0;
	s.path_ends = 0;
	s.root_twice = 0;
	ow__history_keys(g, s.stack);
	for (int i = 0; i < g->nseen; i++)
		if (ow__occurrences(s.stack, i, 0) >= 2)
			s.root_twice = 1;
	for (int i = 0; i < OW_PITS; i++)
		s.history[0][i] = s.history[1][i] = 0;

	ow__deepen(&s.c, root_mask, &game, &s, &cr);
	OW__RESULT_COPY(*out, cr);
	pv_extend(&s, g, out);
	return 0;
}
