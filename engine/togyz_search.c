/* togyz_search.c: iterative-deepening negamax alpha-beta (PVS) for Togyz
 * Kumalak, with a transposition table, ordering (table move, captures and
 * tuzdyks by their gain, killers, history), late-move reductions and the
 * evaluation of tg_search_eval. See togyz_search.h for the contracts. */
#include "engine/togyz_search.h"

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

struct srch {
	const tg_search_limits *lim;
	const tg_eval_weights *eval;
	tg_tt_entry *tt;
	size_t tt_mask;
	uint64_t nodes;
	uint64_t node_limit;
	uint32_t t0;
	uint32_t hard_ms;
	int stopped;
	int budgeted;
	int root_move;
	int root_score;
	uint64_t rng;
	uint8_t killers[MAX_PLY + 1][2];
	uint32_t history[2][TG_PITS];
	uint8_t pv[MAX_PLY + 1][MAX_PLY + 1];
	uint8_t pvlen[MAX_PLY + 1];
};

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

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

static int score_to_tt(int v, int ply)
{
	return v > TG_SEARCH_WON ? v + ply : v < -TG_SEARCH_WON ? v - ply : v;
}

static int score_from_tt(int v, int ply)
{
	return v > TG_SEARCH_WON ? v - ply : v < -TG_SEARCH_WON ? v + ply : v;
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

static int out_of_budget(struct srch *s)
{
	const tg_search_limits *lim = s->lim;

	if (!s->budgeted)
		return 0;
	if (s->node_limit && s->nodes >= s->node_limit)
		return 1;
	if (lim->time_ms && lim->clock && !(s->nodes & 1023) &&
	    (uint32_t)(lim->clock(lim->clock_ctx) - s->t0) >= s->hard_ms)
		return 1;
	return 0;
}

static int negamax(struct srch *s, const tg_pos *p, int depth, int ply, int alpha, int beta)
{
	tg_pos child[TG_ROW];
	int pit[TG_ROW], order[TG_ROW], gain[TG_ROW], idx[TG_ROW];
	int n = 0, me = p->turn, best = -INF, best_move = -1, tt_move = -1, alpha0 = alpha, v;
	uint32_t mask;
	uint64_t key;
	tg_tt_entry *e;

	s->pvlen[ply] = 0;
	if (out_of_budget(s)) {
		s->stopped = 1;
		return 0;
	}
	s->nodes++;
	if ((v = end_value(p, ply)) != INF)
		return v;
	if (depth <= 0 || ply >= MAX_PLY)
		return tg_search_eval(p, s->eval);

	key = pos_key(p);
	e = depth >= TT_MIN_DEPTH ? tt_probe(s, key) : 0;
	if (e) {
		int b = e->info >> 4;

		v = score_from_tt(e->score, ply);
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
		else if (m == s->killers[ply][0])
			k = (1 << 28) + 1;
		else if (m == s->killers[ply][1])
			k = 1 << 28;
		else
			k = (int)(s->history[me][m] >> 4);
		order[n] = k;
		n++;
	}
	for (int i = 0; i < n; i++) { /* insertion sort, by key descending */
		int j = i;

		while (j > 0 && order[idx[j - 1]] < order[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}

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
			if (!s->stopped && v > alpha)
				v = -negamax(s, &child[i], depth - 1, ply + 1, -alpha - 1, -alpha);
			if (!s->stopped && v > alpha && v < beta)
				v = -negamax(s, &child[i], depth - 1, ply + 1, -beta, -alpha);
		}
		if (s->stopped)
			return 0;
		if (v > best) {
			best = v;
			best_move = pit[i];
			if (v > alpha) {
				alpha = v;
				if (!ply) {
					s->root_move = pit[i];
					s->root_score = v;
				}
				s->pv[ply][0] = (uint8_t)pit[i];
				for (int j = 0; j < s->pvlen[ply + 1]; j++)
					s->pv[ply][j + 1] = s->pv[ply + 1][j];
				s->pvlen[ply] = (uint8_t)(s->pvlen[ply + 1] + 1);
			}
		}
		if (alpha >= beta) {
			if (gain[i] <= 0 && s->killers[ply][0] != pit[i]) {
				s->killers[ply][1] = s->killers[ply][0];
				s->killers[ply][0] = (uint8_t)pit[i];
			}
			s->history[me][pit[i]] += (uint32_t)(depth * depth);
			if (s->history[me][pit[i]] > (1u << 26))
				for (int h = 0; h < TG_PITS; h++)
					s->history[me][h] >>= 1;
			break;
		}
	}
	if (depth >= TT_MIN_DEPTH)
		tt_store(s, key, depth,
		         best >= beta ? B_LOWER : best > alpha0 ? B_EXACT : B_UPPER,
		         best_move - me * TG_ROW, score_to_tt(best, ply));
	return best;
}

int tg_search_level(tg_search_limits *lim, int level, uint32_t seed,
                    tg_clock_fn clock, void *clock_ctx, uint32_t time_ms)
{
	tg_search_limits l = {0};

	l.seed = seed;
	switch (level) {
	case TG_LEVEL_EASY:
		l.depth = 1;
		l.noise = 3 * TG_SEARCH_SEED;
		l.blunder = 150;
		break;
	case TG_LEVEL_MEDIUM:
		l.depth = 4;
		l.noise = TG_SEARCH_SEED / 2;
		break;
	case TG_LEVEL_HARD:
		if (clock && time_ms) {
			l.time_ms = time_ms;
			l.clock = clock;
			l.clock_ctx = clock_ctx;
		} else {
			l.nodes = 2000000;
		}
		break;
	default:
		return -1;
	}
	*lim = l;
	return 0;
}

/* Every root move searched with a full window, a random 0..noise added to
 * each, the best picked (sometimes the runner-up). */
static int root_noisy(struct srch *s, const tg_game *g, int depth, tg_search_result *out)
{
	int scores[TG_ROW] = {0}, pits[TG_ROW] = {0}, noisy[TG_ROW] = {0}, pvl[TG_ROW] = {0};
	uint8_t pvs[TG_ROW][MAX_PLY + 1];
	int n = 0, best = 0, second = -1, pick;
	uint32_t mask = tg_legal_mask(&g->pos);

	while (mask) {
		int m = __builtin_ctz(mask);
		tg_pos c = g->pos;

		mask &= mask - 1;
		tg_pos_sow(&c, m, 0);
		scores[n] = -negamax(s, &c, depth - 1, 1, -INF, INF);
		if (s->stopped)
			return -1;
		pits[n] = m;
		pvl[n] = s->pvlen[1];
		for (int j = 0; j < pvl[n]; j++)
			pvs[n][j] = s->pv[1][j];
		n++;
	}
	for (int i = 0; i < n; i++) {
		noisy[i] = scores[i] + (int)(rng_next(&s->rng) % (uint64_t)(s->lim->noise + 1));
		if (scores[i] > TG_SEARCH_WON || scores[i] < -TG_SEARCH_WON)
			noisy[i] = scores[i]; /* never trade a forced result for noise */
	}
	for (int i = 1; i < n; i++)
		if (noisy[i] > noisy[best])
			best = i;
	for (int i = 0; i < n; i++)
		if (i != best && (second < 0 || noisy[i] > noisy[second]))
			second = i;
	pick = best;
	if (second >= 0 && scores[best] <= TG_SEARCH_WON && scores[second] >= -TG_SEARCH_WON &&
	    (int)(rng_next(&s->rng) % 1000) < s->lim->blunder)
		pick = second;
	out->move = pits[pick];
	out->score = scores[pick];
	out->pv[0] = (uint8_t)pits[pick];
	out->npv = 1;
	for (int j = 0; j < pvl[pick] && out->npv < MAX_PLY; j++)
		out->pv[out->npv++] = pvs[pick][j];
	return 0;
}

int tg_search(const tg_game *g, const tg_search_limits *lim, tg_tt_entry *tt,
              size_t n, tg_search_result *out)
{
	struct srch s;
	tg_search_result r;
	int maxd = lim->depth > 0 && lim->depth <= MAX_PLY ? lim->depth : MAX_PLY;
	uint32_t root_mask, t_iter = 0, last_iter = 0;

	if (g->end != OW_END_NONE || !(root_mask = tg_legal_mask(&g->pos)))
		return TG_E_OVER;
	s.lim = lim;
	s.eval = lim->eval ? lim->eval : &tg_eval_default;
	s.tt = n ? tt : 0;
	s.tt_mask = n ? n - 1 : 0;
	s.nodes = 0;
	s.node_limit = lim->nodes;
	s.t0 = lim->time_ms && lim->clock ? lim->clock(lim->clock_ctx) : 0;
	s.hard_ms = lim->time_ms - (lim->time_ms / 33 < 30 ? lim->time_ms / 33 : 30);
	s.stopped = 0;
	s.budgeted = 0;
	s.rng = (uint64_t)lim->seed * 0x2545f4914f6cdd1dull + 0x7654321ull;
	for (int i = 0; i <= MAX_PLY; i++)
		s.killers[i][0] = s.killers[i][1] = 0xff;
	for (int i = 0; i < TG_PITS; i++)
		s.history[0][i] = s.history[1][i] = 0;

	r.move = __builtin_ctz(root_mask);
	r.score = 0;
	r.depth = 0;
	r.npv = 1;
	r.pv[0] = (uint8_t)r.move;
	for (int d = 1; d <= maxd; d++) {
		tg_search_result it = r;
		int v, prev_move = r.move;

		if (lim->noise > 0) {
			uint64_t saved = s.rng;

			if (root_noisy(&s, g, d, &it) < 0)
				break;
			s.rng = saved; /* the same draws at every depth */
			v = it.score;
		} else {
			s.root_move = -1;
			v = negamax(&s, &g->pos, d, 0, -INF, INF);
			if (s.stopped) {
				/* Keep a move the cut iteration proved better. */
				if (s.root_move >= 0 && s.root_move != r.move) {
					r.move = s.root_move;
					r.score = s.root_score;
					r.npv = s.pvlen[0] ? s.pvlen[0] : 1;
					r.pv[0] = (uint8_t)r.move;
					for (int j = 1; j < s.pvlen[0]; j++)
						r.pv[j] = s.pv[0][j];
				}
				break;
			}
			it.move = s.pvlen[0] ? s.pv[0][0] : r.move;
			it.npv = s.pvlen[0] ? s.pvlen[0] : 1;
			it.pv[0] = (uint8_t)it.move;
			for (int j = 1; j < s.pvlen[0]; j++)
				it.pv[j] = s.pv[0][j];
		}
		it.score = v;
		it.depth = d;
		r = it;
		s.budgeted = 1;
		if ((v > TG_SEARCH_WON || v < -TG_SEARCH_WON) &&
		    TG_SEARCH_WIN - (v < 0 ? -v : v) < d)
			break; /* a forced result within reach */
		if (!lim->depth && !(root_mask & (root_mask - 1)))
			break; /* one legal move */
		if (s.node_limit && s.nodes >= s.node_limit)
			break;
		if (lim->time_ms && lim->clock) {
			/* The next iteration starts while it is likely to finish,
			 * and before half the budget (three quarters when the
			 * best move just changed). */
			uint32_t now = (uint32_t)(lim->clock(lim->clock_ctx) - s.t0);
			uint32_t last = now - t_iter, grow, soft;

			grow = last_iter ? (last + last_iter - 1) / last_iter : 3;
			grow = grow < 2 ? 2 : grow > 6 ? 6 : grow;
			soft = it.move != prev_move && d > 1 ? s.hard_ms / 4 * 3 : s.hard_ms / 2;
			if (now >= soft && (uint64_t)now + (uint64_t)last * grow > s.hard_ms)
				break;
			last_iter = last ? last : 1;
			t_iter = now;
		}
	}
	r.nodes = s.nodes;
	*out = r;
	return 0;
}
