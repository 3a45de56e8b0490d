/* pair_sim: deterministic random Swiss tournaments paired round by round by
 * pair_dutch (server/rules/pairing.h), the safety net of changes that must not
 * change a pairing.
 *
 *   pair_sim [--rules 2017|2025] [--set quick|worst|all|diff] [--only T]
 *            [--from T --count N] [--time] [--trf DIR] [--final DIR]
 *
 * Each tournament of the set is made from its number alone (a fixed
 * generator, no clock): a field of 5 to 256 players, random, draw-heavy or
 * white-always-wins results, forfeits, requested half-point byes, late
 * entries and withdrawals. Every round is paired by pair_dutch and played
 * by the generator, and a line is printed per round:
 *
 *   T R N HASH      tournament, round, boards, FNV-1a of the boards
 *   T R fail RC     pair_dutch failed (the tournament stops there)
 *
 * tests/pairing/sim-2017.ref and sim-2025.ref hold the lines of `--set all`
 * under each rules (--rules, 2025 by default) as the code paired them when
 * they were recorded (`make check-pairing-sim` compares). The set `worst`
 * is the recorded worst cases: 256 players with white always winning, all
 * draws, and random results. The set `diff` (tournaments 1001-1200, not in
 * `all`) made the TRF files of the differential test (tests/pairing/diff/):
 * mostly small fields, and corrections of past results besides; --from T
 * --count N makes N more of its kind from number T (tests/pairing/diff-
 * refs.sh --wide: thousands compared, none kept). --time adds
 * each round's pairing time (s) to the line; --trf DIR writes each round's
 * input as DIR/tT-rR.trf for other programs (bench.sh); --final DIR the
 * whole tournament as DIR/tT.trf once played. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/rules/pairing.h"
#include "server/rules/trf.h"

enum { RES_RANDOM, RES_DRAWS, RES_WHITE };

typedef struct sim_spec {
	int n, rounds, results;
	int forfeit_pct, bye_pct, late, withdraw;
	int correct_pct;             /* a past result corrected, per round */
} sim_spec;

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 32);
}

static int below(int n) { return (int)(rnd() % (uint32_t)n); }

/* The worst cases: 256 players, 9 rounds, no forfeit, no bye asked. */
#define NWORST 3
static const sim_spec worst[NWORST] = {
	{ 256, 9, RES_WHITE, 0, 0, 0, 0, 0 },
	{ 256, 9, RES_DRAWS, 0, 0, 0, 0, 0 },
	{ 256, 9, RES_RANDOM, 0, 0, 0, 0, 0 },
};
#define NQUICK 240

/* Tournament t of the quick set, from t alone. */
static sim_spec quick_spec(int t)
{
	sim_spec s;
	rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(t + 1) * 0xbf58476d1ce4e5b9ull);
	for (int i = 0; i < 4; i++)
		rnd();
	int k = t % 10;
	s.n = k < 6 ? 5 + below(36) : k < 9 ? 41 + below(100) : 141 + below(116);
	s.rounds = 3 + below(9);
	if (s.n < 10 && s.rounds > s.n - 1)
		s.rounds = s.n - 1;
	s.results = below(3);
	s.forfeit_pct = below(3) ? below(6) : 0;
	s.bye_pct = below(2) ? below(4) : 0;
	s.late = below(3) ? 0 : 1 + below(s.n / 5 + 1);
	s.withdraw = below(3) ? 0 : 1 + below(s.n / 5 + 1);
	s.correct_pct = 0;
	return s;
}

#define DIFF_FIRST 1001
#define NDIFF 200

/* Tournament t of the differential set: 5 to 255 players, most small. */
static sim_spec diff_spec(int t)
{
	sim_spec s;
	rng_state = 0x6a09e667f3bcc909ull ^ ((uint64_t)(t + 1) * 0x94d049bb133111ebull);
	for (int i = 0; i < 4; i++)
		rnd();
	int k = t % 20;
	s.n = k < 14 ? 5 + below(36) : k < 19 ? 41 + below(60) : 101 + below(155);
	s.rounds = 3 + below(9);
	if (s.n < 12 && s.rounds > s.n - 2)
		s.rounds = s.n - 2;
	s.results = below(3);
	s.forfeit_pct = below(2) ? below(8) : 0;
	s.bye_pct = below(2) ? below(6) : 0;
	s.late = below(2) ? 0 : 1 + below(s.n / 5 + 1);
	s.withdraw = below(2) ? 0 : 1 + below(s.n / 5 + 1);
	s.correct_pct = below(2) ? 30 : 0;
	return s;
}

static uint64_t fnv(uint64_t h, int v)
{
	for (int i = 0; i < 2; i++) {
		h ^= (uint8_t)(v >> (8 * i));
		h *= 0x100000001b3ull;
	}
	return h;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void set_game(pair_player *pl, int r, int opp, int color, char result)
{
	pl->rounds[r].opp = (int16_t)opp;
	pl->rounds[r].color = (uint8_t)color;
	pl->rounds[r].result = result;
	if (pl->nrounds < r + 1)
		pl->nrounds = r + 1;
}

/* The result white gets in a game of the generator's kind. */
static char white_result(int kind)
{
	int x = below(100);
	switch (kind) {
	case RES_WHITE: return '1';
	case RES_DRAWS: return x < 90 ? '=' : x < 95 ? '1' : '0';
	default: return x < 40 ? '1' : x < 60 ? '=' : '0';
	}
}

static char invert_result(char r)
{
	return r == '1' ? '0' : r == '0' ? '1' : r == '+' ? '-' : r == '-' ? '+' : r;
}

static trf_file tf;
static void *work;
static int rules = PAIR_DUTCH_2025;

static void write_trf(const char *path)
{
	static char text[1 << 20];
	size_t len = trf_write(&tf, text, sizeof text);
	FILE *fp = fopen(path, "wb");
	if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp)) {
		perror(path);
		exit(2);
	}
}

/* An arbiter's correction: a game of an earlier round gets another result. */
static void correct_one(pair_event *ev, int r)
{
	int i = below(ev->nplayers), k = below(r);
	pair_player *pl = &ev->p[i];
	if (k >= pl->nrounds || !strchr("10=", pl->rounds[k].result) || pl->rounds[k].opp < 0)
		return;
	char res = "10="[below(3)];
	pl->rounds[k].result = res;
	ev->p[pl->rounds[k].opp].rounds[k].result = invert_result(res);
}

/* Plays round r (0-based) of the boards out[0..nb-1]: results of the
 * spec's kind, forfeits. */
static void play_round(pair_event *ev, const sim_spec *s, int r, const pair_board *out, int nb)
{
	for (int b = 0; b < nb; b++) {
		int wi = out[b].white, bi = out[b].black;
		if (bi < 0) {
			set_game(&ev->p[wi], r, -1, PAIR_NOCOLOR, 'U');
			continue;
		}
		char res = white_result(s->results);
		if (s->forfeit_pct && below(100) < s->forfeit_pct)
			res = below(5) ? (below(2) ? '+' : '-') : 'x';
		if (res == 'x') {        /* neither came: both lose by forfeit */
			set_game(&ev->p[wi], r, bi, PAIR_WHITE, '-');
			set_game(&ev->p[bi], r, wi, PAIR_BLACK, '-');
			continue;
		}
		set_game(&ev->p[wi], r, bi, PAIR_WHITE, res);
		set_game(&ev->p[bi], r, wi, PAIR_BLACK, invert_result(res));
	}
}

/* Plays tournament t of spec s; prints its lines (a round that fails
 * ends it). */
static void run(int t, const sim_spec *s, int timing, const char *trfdir, const char *finaldir)
{
	pair_event *ev = &tf.ev;
	int enter[PAIR_MAX_PLAYERS], leave[PAIR_MAX_PLAYERS];
	memset(&tf, 0, sizeof tf);
	snprintf(tf.title, sizeof tf.title, "pair_sim %d", t);
	ev->rules = rules;
	ev->nplayers = s->n;
	ev->total_rounds = s->rounds;
	ev->first_color = below(4) ? PAIR_WHITE : PAIR_BLACK;
	for (int i = 0; i < s->n; i++) {
		ev->p[i].rating = 2400 - 4 * i;
		snprintf(tf.names[i], sizeof tf.names[i], "Player %d", i + 1);
		enter[i] = 0;
		leave[i] = s->rounds;
	}
	for (int k = 0; k < s->late; k++)
		enter[below(s->n)] = 1 + below(s->rounds - 1);
	for (int k = 0; k < s->withdraw; k++)
		leave[below(s->n)] = 1 + below(s->rounds);
	for (int r = 0; r < s->rounds; r++) {
		/* the entries made ahead: not entered yet, withdrawn, a bye asked */
		for (int i = 0; i < s->n; i++) {
			pair_player *pl = &ev->p[i];
			if (r < enter[i])
				set_game(pl, r, -1, PAIR_NOCOLOR, below(2) ? 'Z' : 'H');
			else if (r >= leave[i])
				set_game(pl, r, -1, PAIR_NOCOLOR, 'Z');
			else if (s->bye_pct && below(100) < s->bye_pct)
				set_game(pl, r, -1, PAIR_NOCOLOR, 'H');
		}
		if (r > 0 && s->correct_pct && below(100) < s->correct_pct)
			correct_one(ev, r);
		if (trfdir) {
			char path[512];
			snprintf(path, sizeof path, "%s/t%d-r%d.trf", trfdir, t, r + 1);
			write_trf(path);
		}
		pair_board out[PAIR_MAX_PLAYERS / 2 + 1];
		int nb = 0;
		char err[200];
		double t0 = now();
		int rc = pair_dutch(ev, work, pair_work_size(s->n), out, &nb, err, sizeof err);
		double el = now() - t0;
		if (rc) {
			printf("%d %d fail %d\n", t, r + 1, rc);
			break;
		}
		uint64_t h = 0xcbf29ce484222325ull;
		for (int b = 0; b < nb; b++) {
			h = fnv(h, out[b].white);
			h = fnv(h, out[b].black);
		}
		if (timing)
			printf("%d %d %d %016llx %.3f\n", t, r + 1, nb, (unsigned long long)h, el);
		else
			printf("%d %d %d %016llx\n", t, r + 1, nb, (unsigned long long)h);
		fflush(stdout);
		play_round(ev, s, r, out, nb);
	}
	if (finaldir) {
		char path[512];
		snprintf(path, sizeof path, "%s/t%d.trf", finaldir, t);
		write_trf(path);
	}
}

int main(int argc, char **argv)
{
	const char *set = "all", *trfdir = NULL, *finaldir = NULL;
	int only = -1, timing = 0, from = DIFF_FIRST, count = NDIFF;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--set") && i + 1 < argc)
			set = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--from") && i + 1 < argc)
			from = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--count") && i + 1 < argc)
			count = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--time"))
			timing = 1;
		else if (!strcmp(argv[i], "--trf") && i + 1 < argc)
			trfdir = argv[++i];
		else if (!strcmp(argv[i], "--final") && i + 1 < argc)
			finaldir = argv[++i];
		else if (!strcmp(argv[i], "--rules") && i + 1 < argc && !strcmp(argv[i + 1], "2017") && ++i)
			rules = PAIR_DUTCH_2017;
		else if (!strcmp(argv[i], "--rules") && i + 1 < argc && !strcmp(argv[i + 1], "2025") && ++i)
			rules = PAIR_DUTCH_2025;
		else {
			fprintf(stderr, "usage: pair_sim [--rules 2017|2025] [--set quick|worst|all|diff] [--only T] [--from T --count N] [--time] [--trf DIR] [--final DIR]\n");
			return 2;
		}
	}
	work = malloc(pair_work_size(PAIR_MAX_PLAYERS));
	if (!work)
		return 2;
	if (!strcmp(set, "diff")) {
		for (int t = from; t < from + count; t++) {
			sim_spec s = diff_spec(t);
			if (only < 0 || only == t)
				run(t, &s, timing, trfdir, finaldir);
		}
		free(work);
		return 0;
	}
	int do_quick = strcmp(set, "worst") != 0, do_worst = strcmp(set, "quick") != 0;
	/* the worst cases are tournaments 1..NWORST, the quick set after them */
	for (int t = 1; do_worst && t <= NWORST; t++) {
		if (only >= 0 && only != t)
			continue;
		rng_state = 0x243f6a8885a308d3ull * (uint64_t)t;
		run(t, &worst[t - 1], timing, trfdir, finaldir);
	}
	for (int t = NWORST + 1; do_quick && t <= NWORST + NQUICK; t++) {
		if (only >= 0 && only != t)
			continue;
		sim_spec s = quick_spec(t);
		run(t, &s, timing, trfdir, finaldir);
	}
	free(work);
	return 0;
}
