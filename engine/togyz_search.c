/* togyz_search.c: iterative-deepening negamax alpha-beta (PVS) for Togyz
 * Kumalak, with a transposition table, ordering (table move, captures and
 * tuzdyks by their gain, killers, history), late-move reductions and the
 * evaluation of tg_search_eval. See togyz_search.h for the contracts.
 *
 * Why it is not one negamax with engine/search.c (what the two share is
 * in search_common.[ch]): Togyz Kumalak has no end by repetition or move
 * count, so this tree carries no history of the line and every table
 * value holds wherever its position recurs, while Oware's must track the
 * keys since the last capture and refuse table cuts and stores that the
 * history may decide. The pruning differs with the game too: no
 * quiescence search here (a capture search at the leaves scored 47.5%
 * against none over 100 games at equal nodes, docs/computer.md, where
 * Oware's gained), no endgame database,
 * one ply of late-move reduction from the fourth move, and a move's gain
 * for ordering counts the opponent's seeds too (sown into tuzdyks) and a
 * new tuzdyk. One generic negamax would put these branches in every node
 * of both games' hottest loop. */
#include "engine/togyz_search.h"
#include "engine/search_common.h"

_Static_assert(TG_SEARCH_MAX_DEPTH == OW__MAX_PLY && TG_SEARCH_WIN == OW__SEARCH_WIN &&
               TG_SEARCH_WON == OW__SEARCH_WON && TG_SEARCH_SEED == OW__SEARCH_SEED &&
               TG_LEVEL_EASY == OW__LEVEL_EASY && TG_LEVEL_MEDIUM == OW__LEVEL_MEDIUM &&
               TG_LEVEL_HARD == OW__LEVEL_HARD && TG_ROW <= OW__MAX_MOVES &&
               TG_LEVEL_LADDER == OW__LEVEL_LADDER,
               "search_common.h's constants are Togyz Kumalak's");

#define MAX_PLY TG_SEARCH_MAX_DEPTH
#define INF (TG_SEARCH_WIN + 1)
#define TT_MIN_DEPTH 2 /* the table is not used one ply above the leaves */
#define LMR_MOVES 3    /* reductions from the LMR_MOVES-th move (0-based) */
#define LMR_DEPTH 3    /* and at this depth or more */

enum { B_NONE = 0, B_EXACT = 1, B_LOWER = 2, B_UPPER = 3 };

/* A tuzdyk brings its owner every seed later sown into it: worth tz_base
 * plus tz_board times the share of the seeds still on the board (about 12
 * seeds at the start, 2 at the end). held per seed in the side's own row
 * (its own at the end, and they feed its moves). */
const tg_eval_weights tg_eval_default = {
	.held = 1, .tz_base = 2 * TG_SEARCH_SEED, .tz_board = 10 * TG_SEARCH_SEED,
	.exposed = 0, .threat = 0,
};

/* All of one search; lives on the stack of tg_search. */
struct srch {
	struct ow__search c; /* budgets, line, killers (search_common.h) */
	const tg_game *g;    /* the root */
	const tg_eval_weights *eval;
	tg_tt_entry *tt;
	size_t tt_mask;
	uint32_t history[2][TG_PITS];
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* A 64-bit hash of the whole position (24 bytes, padding always 0); never
 * 0, which marks an empty slot. */
static uint64_t pos_key(const tg_pos *p)
{
	union { tg_pos p; uint64_t w[3]; } u;
	uint64_t h;

	u.p = *p;
	h = mix(u.w[0] ^ 0x243f6a8885a308d3ull);
	h = mix(h ^ u.w[1]);
	h = mix(h ^ u.w[2]);
	return h ? h : 1;
}

void tg_tt_clear(tg_tt_entry *tt, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tt[i].key = 0;
		tt[i].score = 0;
		tt[i].depth = 0;
		tt[i].info = 0;
		tt[i].pad_ = 0;
	}
}

/* Slots come in pairs: [0] keeps the deepest, [1] the latest. */
static tg_tt_entry *tt_probe(struct srch *s, uint64_t key)
{
	tg_tt_entry *e;

	if (!s->tt)
		return 0;
	e = &s->tt[(size_t)(key >> 20) & s->tt_mask & ~(size_t)1];
	for (int i = 0; i < 2; i++)
		if (e[i].key == key)
			return &e[i];
	return 0;
}

static void tt_store(struct srch *s, uint64_t key, int depth, int bound, int move, int score)
{
	tg_tt_entry *e;

	if (!s->tt)
		return;
	e = &s->tt[(size_t)(key >> 20) & s->tt_mask & ~(size_t)1];
	if (e[0].key != key && e[0].depth > depth)
		e++;
	e->key = key;
	e->score = (int16_t)score;
	e->depth = (uint8_t)depth;
	e->info = (uint8_t)((move & 15) | bound << 4);
}

int tg_search_eval(const tg_pos *p, const tg_eval_weights *w)
{
	int me = p->turn, on = 0, held[2] = {0, 0}, exposed[2] = {0, 0}, threat[2] = {0, 0}, v;

	if (!w)
		w = &tg_eval_default;
	for (int i = 0; i < TG_PITS; i++) {
		int n = p->pits[i], side = i / TG_ROW;

		on += n;
		held[side] += n;
		if (n & 1)
			exposed[side] += n + 1;
		/* A 2 the opponent (without a tuzdyk) could make 3: not the
		 * 9th hole, nor the number of the side's own tuzdyk. */
		if (n == 2 && p->tuzdyk[1 - side] == TG_NONE && i % TG_ROW != TG_ROW - 1 &&
		    (p->tuzdyk[side] == TG_NONE || p->tuzdyk[side] % TG_ROW != i % TG_ROW))
			threat[side]++;
	}
	v = TG_SEARCH_SEED * (p->captured[me] - p->captured[1 - me]);
	v += w->held * (held[me] - held[1 - me]);
	v += w->exposed * (exposed[me] - exposed[1 - me]);
	v += w->threat * (threat[me] - threat[1 - me]);
	for (int s = 0; s < 2; s++) {
		int tz;

		if (p->tuzdyk[s] == TG_NONE)
			continue;
		tz = w->tz_base + w->tz_board * on / TG_SEEDS;
		v += s == me ? tz : -tz;
	}
	return v;
}

/* The value for the side to move of p if the game ends here (as
 * tg_game_play's end: a score of 82, 81-81, or no move for the side to
 * move, whose seeds then go to each row's owner), else INF. */
static int end_value(const tg_pos *p, int ply)
{
	int me = p->turn, a = p->captured[me], b = p->captured[1 - me];

	if (a >= TG_WIN_SCORE || b >= TG_WIN_SCORE || (a == TG_SEEDS / 2 && b == TG_SEEDS / 2))
		;
	else if (!tg_legal_mask(p))
		b = TG_SEEDS - a; /* the mover's row is empty: the rest is the opponent's */
	else
		return INF;
	return a > b ? TG_SEARCH_WIN - ply : a < b ? -(TG_SEARCH_WIN - ply) : 0;
}

static int negamax(struct srch *s, const tg_pos *p, int depth, int ply, int alpha, int beta)
{
	tg_pos child[TG_ROW];
	int pit[TG_ROW], order[TG_ROW], gain[TG_ROW], idx[TG_ROW];
	int n = 0, me = p->turn, best = -INF, best_move = -1, tt_move = -1, alpha0 = alpha, v;
	uint32_t mask;
	uint64_t key;
	tg_tt_entry *e;

	s->c.pvlen[ply] = 0;
	if (ow__out_of_budget(&s->c)) {
		s->c.stopped = 1;
		return 0;
	}
	s->c.nodes++;
	if ((v = end_value(p, ply)) != INF)
		return v;
	if (depth <= 0 || ply >= MAX_PLY)
		return tg_search_eval(p, s->eval);

	key = pos_key(p);
	e = depth >= TT_MIN_DEPTH ? tt_probe(s, key) : 0;
	if (e) {
		int b = e->info >> 4;

		v = ow__score_from_tt(e->score, ply, TG_SEARCH_WON);
		tt_move = me * TG_ROW + (e->info & 15);
		if (ply > 0 && e->depth >= depth &&
		    (b == B_EXACT || (b == B_LOWER && v >= beta) || (b == B_UPPER && v <= alpha)))
			return v;
	}

	mask = tg_legal_mask(p);
	while (mask) {
		int m = __builtin_ctz(mask), k;

		mask &= mask - 1;
		child[n] = *p;
		tg_pos_sow(&child[n], m, 0);
		pit[n] = m;
		/* The seeds the move wins (a capture, a tuzdyk, seeds sown
		 * into tuzdyks), a new tuzdyk counted at its worth. */
		gain[n] = (child[n].captured[me] - p->captured[me]) -
		          (child[n].captured[1 - me] - p->captured[1 - me]);
		if (child[n].tuzdyk[me] != p->tuzdyk[me])
			gain[n] += 8;
		if (m == tt_move)
			k = 1 << 30;
		else if (gain[n] > 0)
			k = (1 << 29) + gain[n];
		else if (m == s->c.killers[ply][0])
			k = (1 << 28) + 1;
		else if (m == s->c.killers[ply][1])
			k = 1 << 28;
		else
			k = (int)(s->history[me][m] >> 4);
		order[n] = k;
		n++;
	}
	ow__order_sort(idx, order, n);

	for (int a = 0; a < n; a++) {
		int i = idx[a];

		if (a == 0) {
			v = -negamax(s, &child[i], depth - 1, ply + 1, -beta, -alpha);
		} else {
			int r = a >= LMR_MOVES && depth >= LMR_DEPTH && gain[i] <= 0 &&
			        order[i] < (1 << 28) ? 1 : 0;

			v = alpha + 1;
			if (r)
				v = -negamax(s, &child[i], depth - 1 - r, ply + 1, -alpha - 1, -alpha);
			if (!s->c.stopped && v > alpha)
				v = -negamax(s, &child[i], depth - 1, ply + 1, -alpha - 1, -alpha);
			if (!s->c.stopped && v > alpha && v < beta)
				v = -negamax(s, &child[i], depth - 1, ply + 1, -beta, -alpha);
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
			if (gain[i] <= 0)
				ow__killer(&s->c, ply, pit[i]);
			ow__history_add(s->history[me], TG_PITS, pit[i], depth);
			break;
		}
	}
	if (depth >= TT_MIN_DEPTH)
		tt_store(s, key, depth,
		         best >= beta ? B_LOWER : best > alpha0 ? B_EXACT : B_UPPER,
		         best_move - me * TG_ROW, ow__score_to_tt(best, ply, TG_SEARCH_WON));
	return best;
}

/* The ladder's steps. */
static const struct ow__step ladder[TG_LADDER_LEVELS] = {
	{-1, 1, 0, 8 * TG_SEARCH_SEED, 700, 0, 0},  /* starter */
	{TG_LEVEL_EASY, 0, 0, 0, 0, 0, 0},          /* easy */
	{-1, 2, 0, 8 * TG_SEARCH_SEED, 380, 0, 0},  /* learner */
	{-1, 2, 0, 5 * TG_SEARCH_SEED, 220, 0, 0},  /* amateur */
	{-1, 2, 0, 5 * TG_SEARCH_SEED / 2, 120, 0, 0}, /* improver */
	{-1, 3, 0, 3 * TG_SEARCH_SEED / 2, 60, 0, 0},  /* steady */
	{TG_LEVEL_MEDIUM, 0, 0, 0, 0, 0, 0},        /* medium */
	{-1, 0, 1600, 0, 0, 0, 0},                  /* advanced */
	{-1, 0, 8000, 0, 0, 0, 0},                  /* strong */
	{-1, 0, 80000, 0, 0, 0, 0},                 /* master */
	{TG_LEVEL_HARD, 0, 0, 0, 0, 0, 0},          /* hard */
};

int tg_search_level(tg_search_limits *lim, int level, uint32_t seed,
                    tg_clock_fn clock, void *clock_ctx, uint32_t time_ms)
{
	struct ow__limits c;
	tg_search_limits l = {0};
	int legacy;

	if (ow__ladder_level(&c, ladder, TG_LADDER_LEVELS, level, seed, clock, clock_ctx, time_ms, &legacy) < 0)
		return -1;
	OW__LIMITS_COPY(l, c);
	*lim = l;
	return 0;
}

/* ow__game's root: the root at depth with a full window. */
static int root_search(void *ctx, int depth)
{
	struct srch *s = ctx;

	return negamax(s, &s->g->pos, depth, 0, -INF, INF);
}

/* ow__game's root_moves: every root move with a full window (easy,
 * medium). */
static int root_moves(void *ctx, int depth, struct ow__root_moves *out)
{
	struct srch *s = ctx;
	uint32_t mask = tg_legal_mask(&s->g->pos);

	while (mask) {
		int m = __builtin_ctz(mask), v;
		tg_pos c = s->g->pos;

		mask &= mask - 1;
		tg_pos_sow(&c, m, 0);
		v = -negamax(s, &c, depth - 1, 1, -INF, INF);
		if (s->c.stopped)
			return -1;
		ow__root_add(&s->c, out, m, v);
	}
	return 0;
}

int tg_search(const tg_game *g, const tg_search_limits *lim, tg_tt_entry *tt,
              size_t n, tg_search_result *out)
{
	static const struct ow__game game = { root_search, root_moves };
	struct srch s;
	struct ow__limits cl;
	struct ow__result r;
	uint32_t root_mask;

	if (g->end != OW_END_NONE || !(root_mask = tg_legal_mask(&g->pos)))
		return TG_E_OVER;
	OW__LIMITS_COPY(cl, *lim);
	ow__search_init(&s.c, &cl, 0x7654321ull);
	s.g = g;
	s.eval = lim->eval ? lim->eval : &tg_eval_default;
	s.tt = n ? tt : 0;
	s.tt_mask = n ? n - 1 : 0;
	for (int i = 0; i < TG_PITS; i++)
		s.history[0][i] = s.history[1][i] = 0;

	ow__deepen(&s.c, root_mask, &game, &s, &r);
	OW__RESULT_COPY(*out, r);
	return 0;
}
