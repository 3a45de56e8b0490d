/* egdb.c: opening and probing endgame databases (see egdb.h). */
#include "engine/egdb.h"

#define MAGIC "OWEGDB1\n"

static uint32_t rd32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

uint64_t ow_egdb_fnv(uint64_t h, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

void ow_egdb_init_rank(ow_egdb *db)
{
	/* ways[r][m]: compositions of r into m pits, C(r + m - 1, m - 1) */
	uint32_t ways[OW_EGDB_MAX_SEEDS + 1][OW_PITS + 1];

	for (int r = 0; r <= OW_EGDB_MAX_SEEDS; r++) {
		ways[r][0] = r == 0;
		for (int m = 1; m <= OW_PITS; m++)
			ways[r][m] = m == 1 ? 1 : 0;
	}
	for (int m = 2; m <= OW_PITS; m++)
		for (int r = 0; r <= OW_EGDB_MAX_SEEDS; r++) {
			uint32_t w = 0;

			for (int j = 0; j <= r; j++)
				w += ways[r - j][m - 1];
			ways[r][m] = w;
		}
	for (int r = 0; r <= OW_EGDB_MAX_SEEDS; r++)
		for (int m = 0; m <= OW_PITS; m++) {
			uint32_t sum = 0;

			for (int a = 0; a <= OW_EGDB_MAX_SEEDS + 1; a++) {
				db->below[r][m][a] = sum;
				if (m >= 1 && a <= r)
					sum += ways[r - a][m - 1];
			}
		}
}

uint32_t ow_egdb_rank(const ow_egdb *db, const uint8_t pits[OW_PITS], int k)
{
	uint32_t rank = 0;
	int r = k;

	for (int i = 0; i < OW_PITS - 1; i++) {
		rank += db->below[r][OW_PITS - i][pits[i]];
		r -= pits[i];
	}
	return rank;
}

void ow_egdb_unrank(const ow_egdb *db, uint32_t rank, int k, uint8_t pits[OW_PITS])
{
	int r = k;

	for (int i = 0; i < OW_PITS - 1; i++) {
		int a = 0;

		while (a < r && db->below[r][OW_PITS - i][a + 1] <= rank)
			a++;
		rank -= db->below[r][OW_PITS - i][a];
		pits[i] = (uint8_t)a;
		r -= a;
	}
	pits[OW_PITS - 1] = (uint8_t)r;
}

int ow_egdb_open(ow_egdb *db, const uint8_t *file, size_t len)
{
	size_t at, need;
	uint64_t sum, want;
	int n;

	if (len < 12)
		return OW_EGDB_E_FORMAT;
	for (int i = 0; i < 8; i++)
		if (file[i] != (uint8_t)MAGIC[i])
			return OW_EGDB_E_FORMAT;
	n = (int)rd32(file + 8);
	if (n < 0 || n > OW_EGDB_MAX_SEEDS)
		return OW_EGDB_E_FORMAT;
	at = 12;
	if (len < at + 12 * (size_t)(n + 1) + 8)
		return OW_EGDB_E_FORMAT;
	ow_egdb_init_rank(db);
	need = 0;
	for (int k = 0; k <= n; k++) {
		db->count[k] = rd32(file + at + 12 * (size_t)k);
		db->quiet_max[k] = rd32(file + at + 12 * (size_t)k + 4);
		db->period[k] = rd32(file + at + 12 * (size_t)k + 8);
		if (db->count[k] != db->below[k][OW_PITS][k + 1] ||
		    db->quiet_max[k] > OW_MOVE_LIMIT || db->period[k] < 1 || db->period[k] > 2)
			return OW_EGDB_E_FORMAT;
		need += db->period[k] * ((db->count[k] + 1) / 2);
	}
	at += 12 * (size_t)(n + 1);
	want = (uint64_t)rd32(file + at) | (uint64_t)rd32(file + at + 4) << 32;
	at += 8;
	if (len != at + need)
		return OW_EGDB_E_FORMAT;
	sum = ow_egdb_fnv(14695981039346656037ull, file + at, need);
	if (sum != want)
		return OW_EGDB_E_CHECKSUM;
	for (int k = 0; k <= n; k++) {
		db->values[k] = file + at;
		at += db->period[k] * ((db->count[k] + 1) / 2);
	}
	db->seeds = n;
	return 0;
}

int ow_egdb_probe(const ow_egdb *db, const ow_pos *p, int quiet, int *exact)
{
	uint8_t b[OW_PITS];
	int k = 0, own = p->turn * OW_ROW;
	uint32_t r;

	if (!db)
		return -1;
	for (int i = 0; i < OW_PITS; i++) {
		k += p->pits[i];
		b[i] = p->pits[(own + i) % OW_PITS];
	}
	if (k > db->seeds)
		return -1;
	*exact = quiet <= (int)db->quiet_max[k];
	r = ow_egdb_rank(db, b, k);
	if (db->period[k] == 2 && (quiet & 1))
		r += ((db->count[k] + 1) / 2) * 2;
	return db->values[k][r >> 1] >> ((r & 1) * 4) & 15;
}
