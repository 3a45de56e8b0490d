/* egdb_gen.c: writes the endgame database file of engine/egdb.h by
 * retrograde analysis. usage: egdb_gen SEEDS FILE
 *
 * For k = 1..SEEDS in turn, over every board of k seeds (the mover's row
 * first): V_0 is the mover's own row (the game ends by the move limit);
 * V_n, with n plies left before the move limit, is the best over the legal
 * moves of: a capture of c seeds, c + (k - c) - W(child) where W is the
 * final value of k - c seeds (a capture restarts the count); a quiet move,
 * k - V_{n-1}(child); no legal move: the mover's own row. The file holds
 * V_160; when V_f = V_{f+1} for some f the values are a fixed point from f
 * on, so they hold for up to 160 - f quiet plies (quiet_max); when instead
 * V_f = V_{f+2} they alternate from f on (some cycles change hands with
 * the parity of the plies left), and the file holds both arrays (period
 * 2). Otherwise V_160 holds after a capture only (quiet_max 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/egdb.h"

/* A board of k seeds, mover first, as an ow_pos with South to move. */
static ow_pos board(const uint8_t pits[OW_PITS], int k)
{
	ow_pos p;

	for (int i = 0; i < OW_PITS; i++)
		p.pits[i] = pits[i];
	p.captured[OW_SOUTH] = (uint8_t)((OW_SEEDS - k) / 2);
	p.captured[OW_NORTH] = (uint8_t)(OW_SEEDS - k - p.captured[OW_SOUTH]);
	p.turn = OW_SOUTH;
	p.pad_ = 0;
	return p;
}

/* What is found for each seed count k: the values (final: V_160, or with
 * period 2 the even quiet counts and odd the odd ones) and how many quiet
 * plies they hold for. */
static ow_egdb db;
static uint8_t *final[OW_EGDB_MAX_SEEDS + 1];
static uint8_t *odd[OW_EGDB_MAX_SEEDS + 1];
static uint32_t quiet_max[OW_EGDB_MAX_SEEDS + 1];
static uint32_t period[OW_EGDB_MAX_SEEDS + 1];

/* For each of the n boards r of k seeds: cur[r] its mover's own row,
 * fixed[r] the best of its moves of fixed value (captures, none), kids
 * its up to 6 quiet children (their ranks; UINT32_MAX none). 0, or -1
 * when a rank does not round-trip. */
static int moves_of(int k, uint32_t n, uint8_t *fixed, uint8_t *cur, uint32_t *kids)
{
	for (uint32_t r = 0; r < n; r++) {
		uint8_t pits[OW_PITS], own = 0;
		ow_pos p;
		unsigned mask;
		int best = -1;

		ow_egdb_unrank(&db, r, k, pits);
		if (ow_egdb_rank(&db, pits, k) != r) {
			fprintf(stderr, "egdb_gen: rank %u of %d seeds does not round-trip\n", r, k);
			return -1;
		}
		p = board(pits, k);
		for (int i = 0; i < OW_ROW; i++)
			own = (uint8_t)(own + pits[i]);
		cur[r] = own;
		mask = ow_legal_mask(&p);
		if (!mask)
			best = own;
		for (int i = 0; i < OW_ROW; i++) {
			ow_pos c = p;
			uint8_t cp[OW_PITS];
			int got;

			kids[(size_t)r * OW_ROW + i] = UINT32_MAX;
			if (!(mask & 1u << i))
				continue;
			ow_pos_sow(&c, i, NULL);
			got = c.captured[OW_SOUTH] - p.captured[OW_SOUTH];
			for (int j = 0; j < OW_PITS; j++)
				cp[j] = c.pits[(j + OW_ROW) % OW_PITS];
			if (got) {
				int v = got + (k - got) -
				        (final[k - got][ow_egdb_rank(&db, cp, k - got)]);

				if (v > best)
					best = v;
			} else {
				kids[(size_t)r * OW_ROW + i] = ow_egdb_rank(&db, cp, k);
			}
		}
		fixed[r] = (uint8_t)(best < 0 ? 0 : best);
		if (best < 0 && !mask)
			fixed[r] = own;
	}
	return 0;
}

/* V_1 .. V_160 of the n boards of k seeds from V_0 in *cur, until they
 * are fixed or alternate: *cur the values kept (final), and with period 2
 * odd[k] the odd quiet counts' (*next taken for it). Returns the ply f
 * from which they hold, or -1. */
static int iterate(int k, uint32_t n, const uint8_t *fixed, const uint32_t *kids,
                   uint8_t **cur, uint8_t **next, uint8_t **prev)
{
	period[k] = 1;
	for (int it = 1; it <= OW_MOVE_LIMIT; it++) {
		uint32_t back2 = 0, changed = 0;

		for (uint32_t r = 0; r < n; r++) {
			int best = fixed[r];
			const uint32_t *kd = kids + (size_t)r * OW_ROW;

			for (int i = 0; i < OW_ROW; i++)
				if (kd[i] != UINT32_MAX && k - (*cur)[kd[i]] > best)
					best = k - (*cur)[kd[i]];
			(*next)[r] = (uint8_t)best;
			changed += (*next)[r] != (*cur)[r];
			back2 += (*next)[r] != (*prev)[r];
		}
		if (!changed) /* V_it == V_{it-1}: fixed from it - 1 on */
			return it - 1;
		if (it >= 2 && !back2) { /* V_it == V_{it-2}: alternating */
			period[k] = 2;
			/* quiet q leaves 160 - q plies: V_it when that has the
			 * parity of it, else V_{it-1} */
			if ((OW_MOVE_LIMIT - it) % 2) {
				uint8_t *t = *cur;

				*cur = *next;
				*next = t;
			}
			/* cur: even quiet counts, next: odd */
			odd[k] = *next;
			*next = NULL;
			return it - 2;
		}
		{
			uint8_t *t = *prev;

			*prev = *cur;
			*cur = *next;
			*next = t;
		}
	}
	return -1;
}

/* Solves the boards of k seeds (those of fewer solved): 0, or 1. */
static int solve(int k)
{
	uint32_t n = db.below[k][OW_PITS][k + 1];
	uint8_t *fixed = malloc(n), *cur = malloc(n), *next = malloc(n);
	uint8_t *prev = malloc(n);
	uint32_t *kids = malloc((size_t)n * OW_ROW * sizeof *kids);
	clock_t t0 = clock();
	int f_at;

	if (!fixed || !cur || !next || !prev || !kids || moves_of(k, n, fixed, cur, kids) < 0)
		return 1;
	f_at = iterate(k, n, fixed, kids, &cur, &next, &prev);
	quiet_max[k] = f_at < 0 ? 0 : (uint32_t)(OW_MOVE_LIMIT - f_at);
	final[k] = cur;
	free(next);
	free(prev);
	free(fixed);
	free(kids);
	fprintf(stderr, "egdb_gen: %2d seeds: %9u positions, %s from %d plies left "
	        "(exact to %u quiet plies), %.1f s\n", k, n,
	        period[k] == 2 ? "alternating" : "fixed", f_at, quiet_max[k],
	        (double)(clock() - t0) / CLOCKS_PER_SEC);
	return 0;
}

/* Little-endian, as the file keeps its numbers. */
static void put_le(uint8_t *w, uint64_t v, int bytes)
{
	for (int b = 0; b < bytes; b++)
		w[b] = (uint8_t)(v >> 8 * b);
}

/* The file: its header, each count's sizes, the checksum, the values
 * (two to a byte). 0, or 1 after an error. */
static int write_db(const char *path, int seeds)
{
	uint64_t sum = 14695981039346656037ull;
	size_t total = 0, at = 0;
	uint8_t *vals, w[12];
	FILE *f;

	for (int k = 0; k <= seeds; k++)
		total += period[k] * ((db.below[k][OW_PITS][k + 1] + 1) / 2);
	vals = calloc(total, 1);
	if (!vals)
		return 1;
	for (int k = 0; k <= seeds; k++) {
		uint32_t n = db.below[k][OW_PITS][k + 1];

		for (uint32_t j = 0; j < period[k]; j++) {
			const uint8_t *v = j ? odd[k] : final[k];

			for (uint32_t r = 0; r < n; r++)
				vals[at + r / 2] |= (uint8_t)(v[r] << (r & 1) * 4);
			at += (n + 1) / 2;
		}
	}
	sum = ow_egdb_fnv(sum, vals, total);
	if (!(f = fopen(path, "wb")))
		return perror(path), 1;
	fwrite("OWEGDB1\n", 1, 8, f);
	put_le(w, (uint32_t)seeds, 4);
	fwrite(w, 1, 4, f);
	for (int k = 0; k <= seeds; k++) {
		put_le(w, db.below[k][OW_PITS][k + 1], 4);
		put_le(w + 4, quiet_max[k], 4);
		put_le(w + 8, period[k], 4);
		fwrite(w, 1, 12, f);
	}
	put_le(w, sum, 8);
	fwrite(w, 1, 8, f);
	fwrite(vals, 1, total, f);
	free(vals);
	if (fclose(f))
		return perror(path), 1;
	fprintf(stderr, "egdb_gen: %s: %zu bytes, checksum %016llx\n", path,
	        total + 12 + 12 * (size_t)(seeds + 1) + 8, (unsigned long long)sum);
	return 0;
}

int main(int argc, char **argv)
{
	int seeds = argc > 2 ? atoi(argv[1]) : -1;

	if (seeds < 0 || seeds > OW_EGDB_MAX_SEEDS) {
		fprintf(stderr, "usage: egdb_gen SEEDS(0-%d) FILE\n", OW_EGDB_MAX_SEEDS);
		return 2;
	}
	ow_egdb_init_rank(&db);
	for (int k = 0; k <= seeds; k++)
		if (solve(k))
			return 1;
	return write_db(argv[2], seeds);
}
