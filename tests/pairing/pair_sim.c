/* pair_sim: deterministic random Swiss tournaments paired round by round by
 * pair_dutch (server/rules/pairing.h), the safety net of changes that must not
 * change a pairing.
 *
 *   pair_sim [--set quick|worst|all] [--only T] [--time] [--trf DIR]
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
 * tests/pairing/sim.ref holds the lines of `--set all` as the code paired
 * them when it was recorded (`make check-pairing-sim` compares). The set
 * `worst` is the recorded worst cases: 256 players with white always
 * winning, all draws, and random results. --time adds each round's pairing
 * time (s) to the line; --trf DIR writes each round's input as
 * DIR/tT-rR.trf for other programs (bench/pairing.sh). */
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
	{ 256, 9, RES_WHITE, 0, 0, 0, 0 },
	{ 256, 9, RES_DRAWS, 0, 0, 0, 0 },
	{ 256, 9, RES_RANDOM, 0, 0, 0, 0 },
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

/* Plays tournament t of spec s; prints its lines. Returns 0, or 1 when a
 * round failed. */
static int run(int t, const sim_spec *s, int timing, const char *trfdir)
{
	pair_event *ev = &tf.ev;
	int enter[PAIR_MAX_PLAYERS], leave[PAIR_MAX_PLAYERS];
	memset(&tf, 0, sizeof tf);
	snprintf(tf.title, sizeof tf.title, "pair_sim %d", t);
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
		if (trfdir) {
			static char text[1 << 20];
			char path[512];
			size_t len = trf_write(&tf, text, sizeof text);
			snprintf(path, sizeof path, "%s/t%d-r%d.trf", trfdir, t, r + 1);
			FILE *fp = fopen(path, "wb");
			if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp)) {
				perror(path);
				exit(2);
			}
		}
		pair_board out[PAIR_MAX_PLAYERS / 2 + 1];
		int nb = 0;
		char err[200];
		double t0 = now();
		int rc = pair_dutch(ev, work, pair_work_size(s->n), out, &nb, err, sizeof err);
		double el = now() - t0;
		if (rc) {
			printf("%d %d fail %d\n", t, r + 1, rc);
			return 1;
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
		/* play the round */
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
	return 0;
}

int main(int argc, char **argv)
{
	const char *set = "all", *trfdir = NULL;
	int only = -1, timing = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--set") && i + 1 < argc)
			set = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--time"))
			timing = 1;
		else if (!strcmp(argv[i], "--trf") && i + 1 < argc)
			trfdir = argv[++i];
		else {
			fprintf(stderr, "usage: pair_sim [--set quick|worst|all] [--only T] [--time] [--trf DIR]\n");
			return 2;
		}
	}
	work = malloc(pair_work_size(PAIR_MAX_PLAYERS));
	if (!work)
		return 2;
	int do_quick = strcmp(set, "worst") != 0, do_worst = strcmp(set, "quick") != 0;
	/* the worst cases are tournaments 1..NWORST, the quick set after them */
	for (int t = 1; do_worst && t <= NWORST; t++) {
		if (only >= 0 && only != t)
			continue;
		rng_state = 0x243f6a8885a308d3ull * (uint64_t)t;
		run(t, &worst[t - 1], timing, trfdir);
	}
	for (int t = NWORST + 1; do_quick && t <= NWORST + NQUICK; t++) {
		if (only >= 0 && only != t)
			continue;
		sim_spec s = quick_spec(t);
		run(t, &s, timing, trfdir);
	}
	free(work);
	return 0;
}
