/* pairing.c: what the pairing systems share (results, scores, the check of
 * a history) and the Berger tables (see pairing.h); the Dutch system is
 * server/rules/pair_dutch.c. */
#include "server/rules/pairing.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pair__set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int pair_result_halves(char result)
{
	switch (result) {
	case '1': case '+': case 'W': case 'F': case 'U':
		return 2;
	case '=': case 'D': case 'H':
		return 1;
	default:
		return 0;
	}
}

/* A result for a game that was played over the board. */
int pair__played(const pair_game *g)
{
	switch (g->result) {
	case '1': case '=': case '0': case 'W': case 'D': case 'L':
		return g->opp >= 0;
	default:
		return 0;
	}
}

/* The player took part in the pairing of that round (a game, played or
 * forfeited, or the pairing-allocated bye). */
int pair__took_part(const pair_game *g)
{
	return g->opp >= 0 || g->result == 'U' || g->result == '+';
}

int pair_score_halves(const pair_player *pl, int rounds)
{
	int s = 0;

	for (int r = 0; r < rounds && r < pl->nrounds; r++)
		s += pair_result_halves(pl->rounds[r].result);
	return s;
}

int pair_rounds_played(const pair_event *ev)
{
	int played = 0;

	for (int i = 0; i < ev->nplayers; i++) {
		const pair_player *pl = &ev->p[i];
		for (int r = pl->nrounds; r > played; r--)
			if (pair__took_part(&pl->rounds[r - 1])) {
				played = r;
				break;
			}
		/* A bye entered ahead still tells that the rounds before it
		 * were played. */
		if (pl->nrounds - 1 > played)
			played = pl->nrounds - 1;
	}
	return played;
}

static int opposite(int result)
{
	switch (result) {
	case '1': return '0';
	case '0': return '1';
	case '=': return '=';
	case 'W': return 'L';
	case 'L': return 'W';
	case 'D': return 'D';
	case '+': return '-';
	case '-': return '+';
	default: return 0;
	}
}

int pair_check(const pair_event *ev, char *err, size_t errlen)
{
	if (ev->nplayers < 0 || ev->nplayers > PAIR_MAX_PLAYERS) {
		pair__set_err(err, errlen, "%d players: at most %d", ev->nplayers, PAIR_MAX_PLAYERS);
		return PAIR_ERANGE;
	}
	if (ev->total_rounds < 0 || ev->total_rounds > PAIR_MAX_ROUNDS) {
		pair__set_err(err, errlen, "%d rounds: at most %d", ev->total_rounds, PAIR_MAX_ROUNDS);
		return PAIR_ERANGE;
	}
	for (int i = 0; i < ev->nplayers; i++) {
		const pair_player *pl = &ev->p[i];
		if (pl->nrounds < 0 || pl->nrounds > PAIR_MAX_ROUNDS) {
			pair__set_err(err, errlen, "player %d: %d rounds", i + 1, pl->nrounds);
			return PAIR_ERANGE;
		}
		for (int r = 0; r < pl->nrounds; r++) {
			const pair_game *g = &pl->rounds[r];
			if (!strchr("10=WDL+-HFUZ ", g->result) || !g->result) {
				pair__set_err(err, errlen, "player %d round %d: not a TRF result", i + 1, r + 1);
				return PAIR_EINVAL;
			}
			if (g->opp < 0) {
				if (!strchr("HFUZ -+", g->result) || g->color != PAIR_NOCOLOR) {
					pair__set_err(err, errlen, "player %d round %d: a game or a colour without an opponent", i + 1, r + 1);
					return PAIR_EINVAL;
				}
				continue;
			}
			if (g->opp >= ev->nplayers || g->opp == i) {
				pair__set_err(err, errlen, "player %d round %d: opponent %d", i + 1, r + 1, g->opp + 1);
				return PAIR_ERANGE;
			}
			const pair_player *op = &ev->p[g->opp];
			const pair_game *h = r < op->nrounds ? &op->rounds[r] : NULL;
			if (!h || h->opp != i
				|| (opposite(g->result) != h->result
					&& !(g->result == '-' && h->result == '-'))
				|| (pair__played(g) && (g->color == PAIR_NOCOLOR
					|| g->color == h->color))) {
				pair__set_err(err, errlen, "players %d and %d disagree on round %d", i + 1, g->opp + 1, r + 1);
				return PAIR_EINVAL;
			}
		}
	}
	return 0;
}

/* ---- Round robin ---------------------------------------------------- */

int pair_berger_rounds(int n)
{
	if (n < 2 || n > PAIR_MAX_PLAYERS)
		return PAIR_ERANGE;
	return n % 2 ? n : n - 1;
}

int pair_berger(int n, int round, pair_board *out)
{
	int cycle = pair_berger_rounds(n);
	if (cycle < 0 || round < 1 || round > 2 * cycle)
		return PAIR_ERANGE;
	int swap = round > cycle;
	int r = swap ? round - cycle : round;
	int m = n % 2 ? n + 1 : n;  /* with the extra number of an odd field */
	int k = m - 1;              /* the numbers that rotate: 1..k */
	/* In round r the pairs among 1..k are those whose numbers add up to
	 * r + 1 modulo k; the one that would meet itself meets m. */
	int x = 0;
	for (int a = 1; a <= k; a++)
		if ((2 * a) % k == (r + 1) % k) {
			x = a;
			break;
		}
	int nb = 0;
	pair_board bye = { -1, -1 };
	for (int b = 0; b < m / 2; b++) {
		int w, bl;
		if (b == 0) {
			if (r % 2) { w = x; bl = m; } else { w = m; bl = x; }
		} else {
			w = (x - 1 + b) % k + 1;
			bl = ((x - 1 - b) % k + k) % k + 1;
		}
		if (swap) { int t = w; w = bl; bl = t; }
		if (w > n || bl > n) {
			bye.white = (int16_t)((w > n ? bl : w) - 1);
			continue;
		}
		out[nb].white = (int16_t)(w - 1);
		out[nb].black = (int16_t)(bl - 1);
		nb++;
	}
	if (bye.white >= 0)
		out[nb++] = bye;
	return nb;
}

