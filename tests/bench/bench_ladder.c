/* bench_ladder.c: the ladder of levels (issue 33) measured: each level
 * plays its neighbour above, and the lowest plays a random and a greedy
 * player (the biggest capture now, ties at random), for Oware or Togyz
 * Kumalak; prints each pairing's score and Elo difference with a 95%
 * interval, then the ladder's Elo, anchored at the random player's 0.
 *
 * usage: bench_ladder oware|togyz GAMES [TOP_GAMES [JOBS [HARD_NODES [PLIES]]]]
 *   GAMES      games of every pairing (rounded up to even), TOP_GAMES of
 *              the top pairing (hard's, the slow one; default GAMES)
 *   JOBS       processes (default 1); the results do not depend on it
 *   HARD_NODES hard's node budget (0, the default: hard's own, 2,000,000)
 *   PLIES      random plies of each opening (default 4 Oware, 2 Togyz)
 * Each opening is played twice, each side once. Every game, opening and
 * random choice follows from the pairing and the game's number, so the
 * figures are the same on any machine under any load.
 *
 * Mistakes (issue 43): at every move, each legal move's net is the seeds
 * it captures now less the most the opponent can capture in reply. A
 * gift: a move of net -MISTAKE_SEEDS or worse when a move of net 0 or
 * better existed; a miss: a move of net below +MISTAKE_SEEDS when a free
 * capture existed (a move capturing MISTAKE_SEEDS or more, of net
 * +MISTAKE_SEEDS or better). Each player's count over every game it
 * played, out of the moves where it could make that mistake.
 *
 * Intervals: the score's standard error from the spread of the opening
 * pairs' points (0..2), times 1.96, turned into Elo; a pairing won (or
 * lost) entirely has no spread: its Elo is that of a score of one half
 * game less (more), shown with ">" (or "<"). The ladder's interval is
 * the root of the sum of the squared half-widths of the steps below. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/search.h"
#include "engine/togyz_search.h"

#define MAX_LEV OW_LADDER_LEVELS
_Static_assert(TG_LADDER_LEVELS <= MAX_LEV, "Oware's ladder is the longer");
enum { P_RANDOM = -2, P_GREEDY = -1 }; /* else a ladder level 1..nlev */

/* Each game's ladder, as cli/cli.h's cli_ladder names it. */
static const char *const oware_names[OW_LADDER_LEVELS + 1] = {
	"",       "starter", "easy",   "learner", "amateur", "improver", "steady",
	"medium", "club",    "advanced", "strong", "expert", "master", "hard",
};
static const char *const togyz_names[TG_LADDER_LEVELS + 1] = {
	"",       "starter", "easy",   "learner", "amateur", "improver",
	"steady", "medium",  "advanced", "strong", "master", "hard",
};
static const char *const *ladder_names;
static int nlev;

static int togyz;
static int opening_plies;
static uint64_t hard_nodes;
/* LADDER_FRESH=1: every move searched from an empty table, as `oware best`
 * answers one position (docs/computer.md, "Which ladder the figures are"). */
static int fresh_tables;
static ow_tt_entry *ow_tt[2];
static tg_tt_entry *tg_tt[2];

#define MISTAKE_SEEDS 4

/* A player's mistakes: chances (moves where it was possible) and made. */
struct mistakes {
	int gift_chances, gifts, miss_chances, misses;
};

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t *s)
{
	*s = mix(*s);
	return *s;
}

/* One game of either kind. */
struct game {
	ow_game o;
	tg_game t;
};

static int g_over(const struct game *g)
{
	return togyz ? g->t.end != OW_END_NONE : g->o.end != OW_END_NONE;
}

static int g_turn(const struct game *g)
{
	return togyz ? g->t.pos.turn : g->o.pos.turn;
}

static int g_winner(const struct game *g)
{
	return togyz ? g->t.winner : g->o.winner;
}

static void g_play(struct game *g, int m)
{
	int rc = togyz ? tg_game_play(&g->t, m, NULL) : ow_game_play(&g->o, m, NULL);

	if (rc) {
		fprintf(stderr, "bench_ladder: illegal move %d\n", m);
		exit(1);
	}
}

/* The seeds the side to move has captured after move m. */
static int g_gain(const struct game *g, int m)
{
	if (togyz) {
		tg_pos p = g->t.pos;

		tg_pos_sow(&p, m, NULL);
		return p.captured[g->t.pos.turn] - g->t.pos.captured[g->t.pos.turn];
	} else {
		ow_pos p = g->o.pos;

		ow_pos_sow(&p, m, NULL);
		return p.captured[g->o.pos.turn] - g->o.pos.captured[g->o.pos.turn];
	}
}

static uint32_t g_legal(const struct game *g)
{
	return togyz ? tg_legal_mask(&g->t.pos) : ow_legal_mask(&g->o.pos);
}

/* The most the side to move in g may capture with one move (0: none). */
static int g_most(const struct game *g)
{
	int most = 0;

	for (uint32_t m = g_legal(g); m; m &= m - 1) {
		int got = g_gain(g, __builtin_ctz(m));

		if (got > most)
			most = got;
	}
	return most;
}

/* Move m in g: counted in k as a gift or a miss when it is one. */
static void count_mistakes(const struct game *g, int m, struct mistakes *k)
{
	int net[32], safe = 0, giving = 0, free_capture = 0;

	for (uint32_t x = g_legal(g); x; x &= x - 1) {
		int pit = __builtin_ctz(x), cap = g_gain(g, pit);
		struct game after = *g;

		if (togyz)
			tg_pos_sow(&after.t.pos, pit, NULL);
		else
			ow_pos_sow(&after.o.pos, pit, NULL);
		net[pit] = cap - g_most(&after);
		safe |= net[pit] >= 0;
		giving |= net[pit] <= -MISTAKE_SEEDS;
		free_capture |= cap >= MISTAKE_SEEDS && net[pit] >= MISTAKE_SEEDS;
	}
	if (safe && giving) {
		k->gift_chances++;
		k->gifts += net[m] <= -MISTAKE_SEEDS;
	}
	if (free_capture) {
		k->miss_chances++;
		k->misses += net[m] < MISTAKE_SEEDS;
	}
}

static int pick_of(uint32_t mask, uint64_t *rng)
{
	int k = (int)(rnd(rng) % (uint64_t)__builtin_popcount(mask));

	while (k--)
		mask &= mask - 1;
	return __builtin_ctz(mask);
}

/* Calibration: LADDER_STEP<k>="depth,nodes,noise,blunder,classic[,margin]"
 * in the environment plays level k with these limits instead (classic:
 * Oware's ow_eval_classic and no quiescence search; margin: the slips'
 * slip_margin, 0 when absent). */
static int step_override(int k, int lim[6])
{
	char name[32];
	const char *v;

	snprintf(name, sizeof name, "LADDER_STEP%d", k);
	v = getenv(name);
	lim[5] = 0;
	return v && sscanf(v, "%d,%d,%d,%d,%d,%d", &lim[0], &lim[1], &lim[2], &lim[3], &lim[4],
	                   &lim[5]) >= 5;
}

/* Player who's move (side: its table) in g. */
static int choose(int who, int side, const struct game *g, uint64_t *rng)
{
	uint32_t mask = togyz ? tg_legal_mask(&g->t.pos) : ow_legal_mask(&g->o.pos);

	if (who == P_RANDOM)
		return pick_of(mask, rng);
	if (who == P_GREEDY) {
		uint32_t best = 0;
		int most = -1;

		for (uint32_t m = mask; m; m &= m - 1) {
			int pit = __builtin_ctz(m), got = g_gain(g, pit);

			if (got > most) {
				most = got;
				best = 0;
			}
			if (got == most)
				best |= 1u << pit;
		}
		return pick_of(best, rng);
	}
	if (togyz) {
		tg_search_limits lim;
		tg_search_result r;

		int o[6];

		tg_search_level(&lim, TG_LEVEL_LADDER + who, (uint32_t)rnd(rng), NULL, NULL, 0);
		if (step_override(who, o)) {
			lim.depth = o[0];
			lim.nodes = (uint64_t)o[1];
			lim.noise = o[2];
			lim.blunder = o[3];
			lim.slip_margin = o[5];
		}
		if (who == TG_LADDER_HARD && hard_nodes)
			lim.nodes = hard_nodes;
		if (fresh_tables)
			tg_tt_clear(tg_tt[side], TG_SEARCH_TT_ENTRIES);
		if (tg_search(&g->t, &lim, tg_tt[side], TG_SEARCH_TT_ENTRIES, &r))
			exit(1);
		return r.move;
	} else {
		ow_search_limits lim;
		ow_search_result r;

		int o[6];

		ow_search_level(&lim, OW_LEVEL_LADDER + who, (uint32_t)rnd(rng), NULL, NULL, 0);
		if (step_override(who, o)) {
			lim.depth = o[0];
			lim.nodes = (uint64_t)o[1];
			lim.noise = o[2];
			lim.blunder = o[3];
			lim.eval = o[4] ? &ow_eval_classic : NULL;
			lim.no_quiescence = o[4];
			lim.slip_margin = o[5];
		}
		if (who == OW_LADDER_HARD && hard_nodes)
			lim.nodes = hard_nodes;
		if (fresh_tables)
			ow_tt_clear(ow_tt[side], OW_SEARCH_TT_ENTRIES);
		if (ow_search(&g->o, &lim, ow_tt[side], OW_SEARCH_TT_ENTRIES, &r))
			exit(1);
		return r.move;
	}
}

/* One game from opening `open`, a playing South when a_south; a's points
 * (2 a win, 1 a draw, 0 a loss); each player's mistakes added to k[0]
 * (a's) and k[1] (b's). */
static int play(int a, int b, int a_south, uint64_t open, uint64_t seed, struct mistakes k[2])
{
	struct game g;
	uint64_t orng = open, rng = seed;

	if (togyz) {
		tg_game_start(&g.t);
		for (int i = 0; i < 2; i++)
			tg_tt_clear(tg_tt[i], TG_SEARCH_TT_ENTRIES);
	} else {
		ow_game_start(&g.o);
		for (int i = 0; i < 2; i++)
			ow_tt_clear(ow_tt[i], OW_SEARCH_TT_ENTRIES);
	}
	for (int i = 0; i < opening_plies && !g_over(&g); i++)
		g_play(&g, choose(P_RANDOM, 0, &g, &orng));
	while (!g_over(&g)) {
		int a_moves = (g_turn(&g) == OW_SOUTH) == !!a_south;
		int m = choose(a_moves ? a : b, a_moves ? 0 : 1, &g, &rng);

		count_mistakes(&g, m, &k[!a_moves]);
		g_play(&g, m);
	}
	if (g_winner(&g) == OW_DRAW)
		return 1;
	return (g_winner(&g) == OW_SOUTH) == !!a_south ? 2 : 0;
}

/* The pairings: a (the stronger, presumably) against b. */
struct pairing {
	int a, b;
	int games;
	int win, draw, loss;
	double sum, sumsq; /* over opening pairs: points 0..4 of a */
};

static const char *pname(int p)
{
	return p == P_RANDOM ? "random" : p == P_GREEDY ? "greedy" : ladder_names[p];
}

static double elo_of(double s)
{
	return -400.0 * log10(1.0 / s - 1.0);
}

/* Each player's mistakes: index 0 random, 1 greedy, 1 + k level k. */
static struct mistakes mk[MAX_LEV + 2];

static int mk_index(int p)
{
	return p == P_RANDOM ? 0 : p == P_GREEDY ? 1 : 1 + p;
}

static void report_mistakes(void)
{
	printf("\nmistakes (of the moves where one was possible): gifts of %d or more seeds net"
	       " when a safe move existed; free captures of %d or more missed\n", MISTAKE_SEEDS,
	       MISTAKE_SEEDS);
	printf("%-9s %8s %7s %8s %7s\n", "player", "chances", "gifts", "chances", "misses");
	for (int i = 0; i < nlev + 2; i++) {
		const struct mistakes *k = &mk[i];

		if (!k->gift_chances && !k->miss_chances)
			continue;
		printf("%-9s %8d %6.1f%% %8d %6.1f%%\n", pname(i == 0 ? P_RANDOM : i == 1 ? P_GREEDY : i - 1),
		       k->gift_chances, k->gift_chances ? 100.0 * k->gifts / k->gift_chances : 0,
		       k->miss_chances, k->miss_chances ? 100.0 * k->misses / k->miss_chances : 0);
	}
}

/* Prints the pairings' rows and the ladder from the games so far. */
static void report(const struct pairing *pr, int np)
{
	double elo[MAX_LEV + 1], half[MAX_LEV + 1], step[MAX_LEV + 1], step_half[MAX_LEV + 1];
	double greedy_elo, greedy_half;

	printf("%-9s %-9s %6s %5s %5s %5s %7s %16s\n", "player", "against", "games", "won",
	       "drawn", "lost", "score", "Elo, 95%");
	for (int i = 0; i < np; i++) {
		const struct pairing *q = &pr[i];
		int n = (q->win + q->draw + q->loss) / 2; /* opening pairs played */
		double s, mean, var, se, lo, hi, e, eh;
		const char *mark = "";

		if (!n) {
			step[i] = step_half[i] = NAN;
			printf("%-9s %-9s %6d (not played)\n", pname(q->a), pname(q->b), 0);
			continue;
		}
		mean = q->sum / n; /* points of 4 */
		var = n > 1 ? (q->sumsq - q->sum * q->sum / n) / (n - 1) : 0;
		s = mean / 4;
		se = sqrt(var / n) / 4;
		if (s >= 1) {
			s = 1 - 0.5 / (2 * n);
			mark = ">";
		} else if (s <= 0) {
			s = 0.5 / (2 * n);
			mark = "<";
		}
		lo = s - 1.96 * se;
		hi = s + 1.96 * se;
		lo = lo < 0.5 / (2 * n) ? 0.5 / (2 * n) : lo;
		hi = hi > 1 - 0.5 / (2 * n) ? 1 - 0.5 / (2 * n) : hi;
		e = elo_of(s);
		eh = (elo_of(hi) - elo_of(lo)) / 2;
		step[i] = e;
		step_half[i] = eh;
		printf("%-9s %-9s %6d %5d %5d %5d %6.1f%% %s%+5.0f [%+.0f, %+.0f]\n", pname(q->a),
		       pname(q->b), (2 * n), q->win, q->draw, q->loss, 100.0 * mean / 4, mark, e,
		       elo_of(lo), elo_of(hi));
	}
	/* pr[0]: 1 vs random, pr[1]: 1 vs greedy, pr[k]: k vs k - 1. */
	elo[1] = step[0];
	half[1] = step_half[0];
	greedy_elo = elo[1] - step[1];
	greedy_half = sqrt(half[1] * half[1] + step_half[1] * step_half[1]);
	for (int k = 2; k <= nlev; k++) {
		elo[k] = elo[k - 1] + step[k];
		half[k] = sqrt(half[k - 1] * half[k - 1] + step_half[k] * step_half[k]);
	}
	printf("\n%-5s %-9s %9s %9s\n", "level", "name", "Elo", "step");
	printf("%-5s %-9s %+9.0f\n", "-", "random", 0.0);
	printf("%-5s %-9s %+5.0f+-%-3.0f\n", "-", "greedy", greedy_elo, greedy_half);
	for (int k = 1; k <= nlev; k++)
		printf("%-5d %-9s %+5.0f+-%-3.0f %+5.0f+-%.0f\n", k, ladder_names[k], elo[k],
		       half[k], k == 1 ? step[0] : step[k], k == 1 ? step_half[0] : step_half[k]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct pairing pr[MAX_LEV + 1];
	int np = 0, games, top_games, jobs, ntask = 0, fd[2];

	if (argc < 3 || (strcmp(argv[1], "oware") && strcmp(argv[1], "togyz"))) {
		fprintf(stderr, "usage: bench_ladder oware|togyz GAMES [TOP_GAMES [JOBS "
		                "[HARD_NODES [PLIES]]]]\n");
		return 2;
	}
	togyz = !strcmp(argv[1], "togyz");
	ladder_names = togyz ? togyz_names : oware_names;
	nlev = togyz ? TG_LADDER_LEVELS : OW_LADDER_LEVELS;
	games = (atoi(argv[2]) + 1) / 2 * 2;
	top_games = argc > 3 ? (atoi(argv[3]) + 1) / 2 * 2 : games;
	jobs = argc > 4 ? atoi(argv[4]) : 1;
	hard_nodes = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
	opening_plies = argc > 6 ? atoi(argv[6]) : togyz ? 2 : 4;
	fresh_tables = getenv("LADDER_FRESH") && atoi(getenv("LADDER_FRESH"));
	if (games < 2 || top_games < 0 || jobs < 1) {
		fprintf(stderr, "bench_ladder: GAMES >= 2, TOP_GAMES >= 0, JOBS >= 1\n");
		return 2;
	}

	pr[np++] = (struct pairing){1, P_RANDOM, games, 0, 0, 0, 0, 0};
	pr[np++] = (struct pairing){1, P_GREEDY, games, 0, 0, 0, 0, 0};
	for (int k = 2; k <= nlev; k++)
		pr[np++] = (struct pairing){k, k - 1, k == nlev ? top_games : games, 0, 0, 0, 0, 0};

	/* Calibration: LADDER_ONLY="k,..." plays only the pairings of those
	 * levels against the one below (1: against random and greedy). */
	if (getenv("LADDER_ONLY")) {
		const char *only = getenv("LADDER_ONLY");

		for (int i = 0; i < np; i++) {
			int keep = 0;

			for (const char *c = only; *c;) {
				char *end;
				long v = strtol(c, &end, 10);

				if (end == c)
					break;
				keep |= v == pr[i].a;
				c = *end == ',' ? end + 1 : end;
			}
			if (!keep)
				pr[i].games = 0;
		}
	}

	printf("ladder of %s: %d games a pairing (%d hard's), openings of %d random plies, "
	       "each played from both sides; hard at %llu nodes a move%s\n",
	       togyz ? "Togyz Kumalak" : "Oware", games, top_games, opening_plies,
	       (unsigned long long)(hard_nodes ? hard_nodes : 2000000),
	       fresh_tables ? "; every move from an empty table" : "");
	fflush(stdout);

	/* Tasks: one opening pair each (two games), dealt round robin. */
	for (int i = 0; i < np; i++)
		ntask += pr[i].games / 2;
	if (pipe(fd))
		return 1;
	for (int j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid)
			continue;
		close(fd[0]);
		ow_tt[0] = malloc(OW_SEARCH_TT_ENTRIES * sizeof *ow_tt[0]);
		ow_tt[1] = malloc(OW_SEARCH_TT_ENTRIES * sizeof *ow_tt[1]);
		tg_tt[0] = malloc(TG_SEARCH_TT_ENTRIES * sizeof *tg_tt[0]);
		tg_tt[1] = malloc(TG_SEARCH_TT_ENTRIES * sizeof *tg_tt[1]);
		if (!ow_tt[0] || !ow_tt[1] || !tg_tt[0] || !tg_tt[1])
			_exit(1);
		/* Task t is the (t / np)-th opening pair of pairing t % np,
		 * so that the slow pairing is spread over the jobs. */
		for (int t = 0, done = 0; done < ntask; t++) {
			int p = t % np, k = t / np, rec[3 + 8];
			struct mistakes got[2];
			uint64_t base;

			if (k >= pr[p].games / 2)
				continue;
			if (done++ % jobs != j)
				continue;
			base = mix((uint64_t)togyz << 40 ^ (uint64_t)(pr[p].a + 8) << 32 ^
			           (uint64_t)(pr[p].b + 8) << 24 ^ (uint64_t)k);
			memset(got, 0, sizeof got);
			rec[0] = p;
			rec[1] = play(pr[p].a, pr[p].b, 1, base, mix(base ^ 1), got);
			rec[2] = play(pr[p].a, pr[p].b, 0, base, mix(base ^ 2), got);
			memcpy(rec + 3, got, sizeof got);
			if (write(fd[1], rec, sizeof rec) != (ssize_t)sizeof rec)
				_exit(1);
		}
		_exit(0);
	}
	close(fd[1]);
	for (int t = 0; t < ntask; t++) {
		int rec[3 + 8];
		struct mistakes got[2];

		if (read(fd[0], rec, sizeof rec) != (ssize_t)sizeof rec) {
			fprintf(stderr, "bench_ladder: a job failed\n");
			return 1;
		}
		for (int i = 1; i < 3; i++) {
			pr[rec[0]].win += rec[i] == 2;
			pr[rec[0]].draw += rec[i] == 1;
			pr[rec[0]].loss += rec[i] == 0;
		}
		memcpy(got, rec + 3, sizeof got);
		for (int i = 0; i < 2; i++) {
			struct mistakes *k = &mk[mk_index(i ? pr[rec[0]].b : pr[rec[0]].a)];

			k->gift_chances += got[i].gift_chances;
			k->gifts += got[i].gifts;
			k->miss_chances += got[i].miss_chances;
			k->misses += got[i].misses;
		}
		pr[rec[0]].sum += rec[1] + rec[2];
		pr[rec[0]].sumsq += (double)(rec[1] + rec[2]) * (rec[1] + rec[2]);
		/* The table so far, every eighth of the games (the last is the
		 * result). */
		if ((t + 1) % ((ntask + 7) / 8) == 0 && t + 1 < ntask) {
			printf("\nafter %d of %d opening pairs:\n", t + 1, ntask);
			report(pr, np);
			printf("\n");
		}
	}
	printf("\nall %d opening pairs:\n", ntask);
	for (int j = 0; j < jobs; j++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "bench_ladder: a job failed\n");
			return 1;
		}
	}

	report(pr, np);
	report_mistakes();
	return 0;
}
