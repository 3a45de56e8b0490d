/* search_common.c: the iterative deepening, time management, levels and
 * random picks that Oware's search and Togyz Kumalak's share. See
 * search_common.h. */
#include "engine/search_common.h"

/* Small deterministic PRNG (splitmix64 step). */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void ow__search_init(struct ow__search *c, const struct ow__limits *lim, uint64_t salt)
{
	c->lim = *lim;
	c->nodes = 0;
	c->next_clock = 0;
	c->t0 = lim->time_ms && lim->clock ? lim->clock(lim->clock_ctx) : 0;
	/* A margin for the answer to reach the caller on a slow, busy device:
	 * 3% of the budget, at most 30 ms. */
	c->hard_ms = lim->time_ms - (lim->time_ms / 33 < 30 ? lim->time_ms / 33 : 30);
	c->stopped = 0;
	c->budgeted = 0;
	c->root_move = -1;
	c->root_score = 0;
	c->rng = (uint64_t)lim->seed * 0x2545f4914f6cdd1dull + salt;
	for (int i = 0; i <= OW__MAX_PLY; i++)
		c->killers[i][0] = c->killers[i][1] = 0xff;
}

int ow__search_level(struct ow__limits *lim, int level, uint32_t seed,
                     ow__clock_fn clock, void *clock_ctx, uint32_t time_ms)
{
	struct ow__limits l = {0};

	l.seed = seed;
	switch (level) {
	case OW__LEVEL_EASY:
		l.depth = 1;
		l.noise = 3 * OW__SEARCH_SEED;
		l.blunder = 150;
		break;
	case OW__LEVEL_MEDIUM:
		l.depth = 4;
		l.noise = OW__SEARCH_SEED / 2;
		break;
	case OW__LEVEL_HARD:
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

int ow__ladder_level(struct ow__limits *lim, const struct ow__step *ladder, int steps,
                     int level, uint32_t seed, ow__clock_fn clock, void *clock_ctx, uint32_t time_ms,
                     int *legacy)
{
	const struct ow__step *st;
	struct ow__limits l = {0};

	*legacy = level;
	if (level < OW__LEVEL_LADDER + 1 || level > OW__LEVEL_LADDER + steps)
		return ow__search_level(lim, level, seed, clock, clock_ctx, time_ms);
	st = &ladder[level - OW__LEVEL_LADDER - 1];
	*legacy = st->legacy;
	if (st->legacy >= 0)
		return ow__search_level(lim, st->legacy, seed, clock, clock_ctx, time_ms);
	l.depth = st->depth;
	l.nodes = st->nodes;
	l.noise = st->noise;
	l.blunder = st->blunder;
	l.slip_margin = st->margin;
	l.seed = seed;
	*lim = l;
	return st->flags;
}

/* After every root move was searched with a full window (noise > 0:
 * easy, medium), a random pick: the best after a random 0..noise is added
 * to each, or sometimes the runner-up. */
static void pick_noisy(struct ow__search *c, const struct ow__root_moves *rm,
                       struct ow__result *out)
{
	int noisy[OW__MAX_MOVES], best = 0, second = -1, pick, n = rm->n;

	for (int i = 0; i < n; i++) {
		noisy[i] = rm->score[i] + (int)(rng_next(&c->rng) % (uint64_t)(c->lim.noise + 1));
		/* Never trade a forced result for noise. */
		if (rm->score[i] > OW__SEARCH_WON || rm->score[i] < -OW__SEARCH_WON)
			noisy[i] = rm->score[i];
	}
	for (int i = 1; i < n; i++)
		if (noisy[i] > noisy[best])
			best = i;
	for (int i = 0; i < n; i++)
		if (i != best && (second < 0 || noisy[i] > noisy[second]))
			second = i;
	pick = best;
	if (c->lim.slip_margin > 0 && rm->score[best] <= OW__SEARCH_WON &&
	    (int)(rng_next(&c->rng) % 1000) < c->lim.blunder) {
		/* A slip within the margin: another move that looks almost as
		 * good (a few seeds left to a capture, a chain not seen), never a
		 * big one thrown away; the best when there is none. */
		int near[OW__MAX_MOVES], nn = 0;

		for (int i = 0; i < n; i++)
			if (i != best && rm->score[i] >= rm->score[best] - c->lim.slip_margin &&
			    rm->score[i] >= -OW__SEARCH_WON)
				near[nn++] = i;
		if (nn)
			pick = near[rng_next(&c->rng) % (uint64_t)nn];
	} else if (second >= 0 && rm->score[best] <= OW__SEARCH_WON &&
	           rm->score[second] >= -OW__SEARCH_WON &&
	           (int)(rng_next(&c->rng) % 1000) < c->lim.blunder)
		pick = second;
	out->move = rm->move[pick];
	out->score = rm->score[pick];
	out->pv[0] = (uint8_t)rm->move[pick];
	out->npv = 1;
	for (int j = 0; j < rm->pvlen[pick] && out->npv < OW__MAX_PLY; j++)
		out->pv[out->npv++] = rm->pv[pick][j];
}

void ow__deepen(struct ow__search *c, uint32_t root_mask, const struct ow__game *game,
                void *ctx, struct ow__result *out)
{
	const struct ow__limits *lim = &c->lim;
	struct ow__result r;
	int maxd = lim->depth > 0 && lim->depth <= OW__MAX_PLY ? lim->depth : OW__MAX_PLY;
	uint32_t t_iter = 0, last_iter = 0; /* ms: the iteration's start, the last's length */

	r.move = __builtin_ctz(root_mask);
	r.score = 0;
	r.depth = 0;
	r.npv = 1;
	r.pv[0] = (uint8_t)r.move;
	for (int d = 1; d <= maxd; d++) {
		struct ow__result it = r;
		int v, prev_move = r.move;

		if (lim->noise > 0) {
			struct ow__root_moves rm;
			uint64_t saved = c->rng;

			rm.n = 0;
			if (game->root_moves(ctx, d, &rm) < 0)
				break;
			pick_noisy(c, &rm, &it);
			/* The same draws at every depth: the pick depends on the
			 * scores of the last iteration alone. */
			c->rng = saved;
			v = it.score;
		} else {
			c->root_move = -1;
			v = game->root(ctx, d);
			if (c->stopped) {
				/* Keep a move the cut iteration has already proved
				 * better than the previous choice (searched first). */
				if (c->root_move >= 0 && c->root_move != r.move) {
					r.move = c->root_move;
					r.score = c->root_score;
					r.npv = c->pvlen[0] ? c->pvlen[0] : 1;
					r.pv[0] = (uint8_t)r.move;
					for (int j = 1; j < c->pvlen[0]; j++)
						r.pv[j] = c->pv[0][j];
				}
				break;
			}
			it.move = c->pvlen[0] ? c->pv[0][0] : r.move;
			it.npv = c->pvlen[0] ? c->pvlen[0] : 1;
			it.pv[0] = (uint8_t)it.move;
			for (int j = 1; j < c->pvlen[0]; j++)
				it.pv[j] = c->pv[0][j];
		}
		it.score = v;
		it.depth = d;
		r = it;
		c->budgeted = 1;
		/* A forced result within reach: deeper search cannot change it. */
		if ((v > OW__SEARCH_WON || v < -OW__SEARCH_WON) &&
		    OW__SEARCH_WIN - (v < 0 ? -v : v) < d)
			break;
		/* One legal move and no asked depth: nothing to weigh. */
		if (!lim->depth && !(root_mask & (root_mask - 1)))
			break;
		if (lim->nodes && c->nodes >= lim->nodes)
			break;
		/* Time: start the next iteration while it is likely to finish
		 * (its time predicted from the growth of the last two), and in
		 * any case before half the budget (three quarters when the best
		 * move just changed): a cut iteration still keeps a better root
		 * move that it has proved. */
		if (lim->time_ms && lim->clock) {
			uint32_t now = (uint32_t)(lim->clock(lim->clock_ctx) - c->t0);
			uint32_t last = now - t_iter, grow, soft;

			grow = last_iter ? (last + last_iter - 1) / last_iter : 3;
			grow = grow < 2 ? 2 : grow > 6 ? 6 : grow;
			soft = it.move != prev_move && d > 1 ? c->hard_ms / 4 * 3 : c->hard_ms / 2;
			if (now >= soft && (uint64_t)now + (uint64_t)last * grow > c->hard_ms)
				break;
			last_iter = last ? last : 1;
			t_iter = now;
		}
	}
	r.nodes = c->nodes;
	*out = r;
}
