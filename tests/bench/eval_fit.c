/* eval_fit.c: fits the evaluation's table (ow_eval_weights.table,
 * engine/search.h) to the values of deeper searches, by least squares.
 *
 * usage: eval_fit [GAMES [DEPTH [JOBS]]]   (defaults 1200 12 2)
 *
 * The data, regenerated on every run (nothing is stored): GAMES games, each
 * from its own opening of 6 random plies (a fixed seed per game), played on
 * by the search at PLAY_NODES nodes a move (today's evaluation and the
 * endgame database of $OW_EGDB), with one move in ten drawn at random for
 * variety, until the game ends or the board holds no more seeds than the
 * database. Every other position of those games where the evaluation
 * stands (more seeds on the board than the database, and no capture open
 * to the side to move: the quiescence search resolves captures before it
 * evaluates) is a sample, labelled with the score of a DEPTH-ply search
 * (same engine and database; decided scores are left out):
 *   y = that score minus OW_SEARCH_SEED times the side to move's lead in
 *       captured seeds (the part the evaluation's table must predict);
 *   x = one indicator per pit of each row (the mover's, the opponent's,
 *       numbered from each owner's first pit) and count of seeds in it
 *       (0..15, 15 standing for 15 or more): 192 features, 12 of them 1.
 * The fit minimises the sum of (y - w.x)^2 + RIDGE * |w|^2 (the ridge
 * settles the parts the data cannot tell apart: the twelve pits' tables
 * each sum to 1 over a sample, and counts that hardly occur), by the normal
 * equations and Gaussian elimination. It prints the table as a C
 * initializer (rounded to integers) and the mean squared error, in seeds,
 * of today's evaluation and of the fitted table on the samples, over all
 * of them and on the last eighth of the games (fitted without them). JOBS
 * processes share the games; the result does not depend on JOBS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/search.h"
#include "tests/bench/egdb_load.h"

#define TT_ENTRIES (1u << 18)
#define OPENING_PLIES 6
#define PLAY_NODES 20000
#define NF (2 * OW_ROW * 16)
#define RIDGE 20.0
#define HOLDOUT 8 /* games i with i % HOLDOUT == HOLDOUT - 1 are held out */

struct sample {
	uint8_t f[OW_PITS]; /* indices of the 12 features that are 1 */
	int y;              /* the label (see above) */
	int old;            /* today's evaluation minus the capture lead */
	int game;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void features(const ow_pos *p, uint8_t f[OW_PITS])
{
	int me = p->turn;

	for (int i = 0; i < OW_ROW; i++) {
		int a = p->pits[me * OW_ROW + i], b = p->pits[(1 - me) * OW_ROW + i];

		f[i] = (uint8_t)(i * 16 + (a > 15 ? 15 : a));
		f[OW_ROW + i] = (uint8_t)(OW_ROW * 16 + i * 16 + (b > 15 ? 15 : b));
	}
}

/* Nonzero when a move of the side to move in p captures. */
static int can_capture(const ow_pos *p)
{
	unsigned mask = ow_legal_mask(p);

	while (mask) {
		int m = __builtin_ctz(mask);
		ow_pos c = *p;

		mask &= mask - 1;
		ow_pos_sow(&c, m, 0);
		if (c.captured[p->turn] != p->captured[p->turn])
			return 1;
	}
	return 0;
}

/* Plays game number i, writing its samples to out. */
static void play(int i, int depth, const ow_egdb *db, ow_tt_entry *tt, ow_tt_entry *tt2,
                 FILE *out)
{
	uint64_t rng = 0xf17ab1eull + (uint64_t)i * 1000003u;
	int seeds = db ? db->seeds : 0;
	ow_game g;

	ow_game_start(&g);
	for (int k = 0; k < OPENING_PLIES && g.end == OW_END_NONE; k++) {
		unsigned mask = ow_legal_mask(&g.pos);
		int r = (int)(rnd(&rng) % (uint64_t)__builtin_popcount(mask));

		while (r--)
			mask &= mask - 1;
		ow_game_play(&g, __builtin_ctz(mask), NULL);
	}
	ow_tt_clear(tt, TT_ENTRIES);
	while (g.end == OW_END_NONE) {
		const ow_pos *p = &g.pos;
		int on = OW_SEEDS - p->captured[0] - p->captured[1], m, me = p->turn;
		ow_search_limits lim = {0};
		ow_search_result r;

		if (on <= seeds)
			break;
		if (g.ply % 2 == 0 && !can_capture(p)) {
			struct sample s;
			int lead = OW_SEARCH_SEED * (p->captured[me] - p->captured[1 - me]);

			lim.depth = depth;
			lim.egdb = db;
			ow_tt_clear(tt2, TT_ENTRIES);
			if (ow_search(&g, &lim, tt2, TT_ENTRIES, &r))
				exit(1);
			if (r.score > -20000 && r.score < 20000) {
				features(p, s.f);
				s.y = r.score - lead;
				s.old = ow_search_eval(p, NULL) - lead;
				s.game = i;
				fwrite(&s, sizeof s, 1, out);
			}
		}
		if (rnd(&rng) % 10 == 0) {
			unsigned mask = ow_legal_mask(p);
			int k = (int)(rnd(&rng) % (uint64_t)__builtin_popcount(mask));

			while (k--)
				mask &= mask - 1;
			m = __builtin_ctz(mask);
		} else {
			memset(&lim, 0, sizeof lim);
			lim.nodes = PLAY_NODES;
			lim.egdb = db;
			if (ow_search(&g, &lim, tt, TT_ENTRIES, &r))
				exit(1);
			m = r.move;
		}
		if (ow_game_play(&g, m, NULL))
			exit(1);
	}
}

/* Solves a w = b (n x n) by Gaussian elimination with partial pivoting. */
static int solve(int n, double *a, double *b, double *w)
{
	for (int c = 0; c < n; c++) {
		int piv = c;

		for (int r = c + 1; r < n; r++)
			if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
				piv = r;
		if (fabs(a[piv * n + c]) < 1e-12)
			return -1;
		for (int k = 0; k < n; k++) {
			double t = a[c * n + k];

			a[c * n + k] = a[piv * n + k];
			a[piv * n + k] = t;
		}
		double t = b[c];

		b[c] = b[piv];
		b[piv] = t;
		for (int r = c + 1; r < n; r++) {
			double f = a[r * n + c] / a[c * n + c];

			for (int k = c; k < n; k++)
				a[r * n + k] -= f * a[c * n + k];
			b[r] -= f * b[c];
		}
	}
	for (int r = n - 1; r >= 0; r--) {
		double v = b[r];

		for (int k = r + 1; k < n; k++)
			v -= a[r * n + k] * w[k];
		w[r] = v / a[r * n + r];
	}
	return 0;
}

/* Fits w on the samples with hold (games of the held-out eighth too when
 * hold is nonzero). */
static int fit(const struct sample *s, size_t n, int all, double *w)
{
	static double a[NF * NF], b[NF];

	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	for (size_t k = 0; k < n; k++) {
		if (!all && s[k].game % HOLDOUT == HOLDOUT - 1)
			continue;
		for (int i = 0; i < OW_PITS; i++) {
			for (int j = 0; j < OW_PITS; j++)
				a[s[k].f[i] * NF + s[k].f[j]] += 1;
			b[s[k].f[i]] += s[k].y;
		}
	}
	for (int i = 0; i < NF; i++)
		a[i * NF + i] += RIDGE;
	return solve(NF, a, b, w);
}

static double predict(const struct sample *s, const double *w)
{
	double v = 0;

	for (int i = 0; i < OW_PITS; i++)
		v += w[s->f[i]];
	return v;
}

int main(int argc, char **argv)
{
	int games = argc > 1 ? atoi(argv[1]) : 1200, depth = argc > 2 ? atoi(argv[2]) : 12;
	int jobs = argc > 3 ? atoi(argv[3]) : 2;
	const ow_egdb *db = bench_egdb_load();
	char path[64];
	struct sample *all = NULL;
	size_t n = 0, cap = 0;
	static double w[NF];
	double e_old = 0, e_new = 0, h_old = 0, h_new = 0, nh = 0;

	if (games < HOLDOUT || depth < 1 || jobs < 1 || jobs > 16) {
		fprintf(stderr, "usage: eval_fit [GAMES(>=8) [DEPTH [JOBS(1-16)]]]\n");
		return 2;
	}
	for (int j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			ow_tt_entry *tt = malloc(TT_ENTRIES * sizeof *tt);
			ow_tt_entry *tt2 = malloc(TT_ENTRIES * sizeof *tt2);
			FILE *out;

			snprintf(path, sizeof path, "/tmp/eval_fit.%d.%d", (int)getppid(), j);
			out = fopen(path, "wb");
			if (!tt || !tt2 || !out)
				_exit(1);
			for (int i = j; i < games; i += jobs)
				play(i, depth, db, tt, tt2, out);
			fclose(out);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	for (int j = 0; j < jobs; j++) {
		FILE *f;
		struct sample s;

		snprintf(path, sizeof path, "/tmp/eval_fit.%d.%d", (int)getpid(), j);
		if (!(f = fopen(path, "rb")))
			return 1;
		while (fread(&s, sizeof s, 1, f) == 1) {
			if (n == cap) {
				cap = cap ? cap * 2 : 4096;
				all = realloc(all, cap * sizeof *all);
				if (!all)
					return 1;
			}
			all[n++] = s;
		}
		fclose(f);
		remove(path);
	}
	if (n < NF || fit(all, n, 0, w)) {
		fprintf(stderr, "eval_fit: too few samples (%zu)\n", n);
		return 1;
	}
	for (size_t k = 0; k < n; k++) {
		double d;

		if (all[k].game % HOLDOUT != HOLDOUT - 1)
			continue;
		d = (all[k].y - all[k].old) / (double)OW_SEARCH_SEED;
		h_old += d * d;
		d = (all[k].y - predict(&all[k], w)) / OW_SEARCH_SEED;
		h_new += d * d;
		nh++;
	}
	if (fit(all, n, 1, w))
		return 1;
	for (size_t k = 0; k < n; k++) {
		double d = (all[k].y - all[k].old) / (double)OW_SEARCH_SEED;

		e_old += d * d;
		d = (all[k].y - predict(&all[k], w)) / OW_SEARCH_SEED;
		e_new += d * d;
	}
	printf("eval_fit: %d games, %zu samples labelled at depth %d; mean squared error "
	       "(seeds^2): today's %.3f, fitted %.3f; on the held-out eighth (%.0f samples, "
	       "fitted without it): today's %.3f, fitted %.3f\n", games, n, depth,
	       e_old / (double)n, e_new / (double)n, nh, h_old / nh, h_new / nh);
	printf("\t.table = {\n");
	for (int r = 0; r < 2; r++) {
		printf("\t\t{ /* %s row */\n", r ? "the opponent's" : "the mover's");
		for (int i = 0; i < OW_ROW; i++) {
			printf("\t\t\t{");
			for (int c = 0; c < 16; c++)
				printf("%s%d", c ? ", " : "", (int)lround(w[r * OW_ROW * 16 + i * 16 + c]));
			printf("},\n");
		}
		printf("\t\t},\n");
	}
	printf("\t},\n");
	free(all);
	return 0;
}
