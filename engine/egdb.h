/* egdb.h: endgame databases: the exact value of every position with few
 * seeds left on the board, computed by retrograde analysis (cli/egdb_gen.c,
 * `make egdb`), probed by the search (search.h, ow_search_limits.egdb).
 *
 * Pure C11 like the engine: no allocation, no I/O. The caller loads the
 * file into memory it owns and keeps it while the database is used.
 *
 * What a value is. For a position with k seeds on the board (k <= the
 * file's seeds), the number of those k seeds that the side to move ends
 * the game with (captured from now on, plus its own row when the game ends
 * by the move limit or for want of a legal move), when both sides play to
 * end with the most seeds: the final score (docs/rules-oware.md) is then the
 * scores so far plus this split, and since a player's captures only grow,
 * the winner by 25, by the final score and by 24-24 follows from it alone,
 * whatever the scores are. The value holds for a position just after a
 * capture (no quiet ply yet), and for up to quiet_max[k] quiet plies: the
 * values of k seeds stop changing, or alternate with a period of 2 plies,
 * when enough plies remain before the move limit (see the generator); with
 * a period of 2 the file holds both, for even and for odd quiet counts.
 *
 * What a database cannot know: the game's history. It assumes that no
 * position occurs a third time (the rules' repetition end is ignored: a
 * line that repeats is scored as if it went on to the move limit), and it
 * is exact only while the quiet count is at most quiet_max[k] (ow_egdb_probe
 * says whether it is). The search uses it only at the leaves of its tree, where
 * the line's history is no longer checked anyway.
 *
 * The file (little-endian): "OWEGDB1\n", u32 seeds N, then for k = 0..N
 * u32 count (positions of k seeds, side to move first: C(k+11, 11)),
 * u32 quiet_max and u32 period (1 or 2), then u64 FNV-1a 64 of all the
 * value bytes, then for each k its period arrays (for quiet counts of
 * remainder 0, then 1, modulo the period), each of 4-bit values (low nibble
 * first), ceil(count / 2) bytes. A
 * position is ranked by its 12 pits with the mover's row first (a..f for
 * South, A..F for North), in the order of ow_egdb_rank. */
#ifndef OW_EGDB_H
#define OW_EGDB_H

#include <stddef.h>
#include <stdint.h>

#include "engine/oware.h"

#define OW_EGDB_MAX_SEEDS 15 /* values fit 4 bits */

/* Errors of ow_egdb_open. */
enum {
	OW_EGDB_E_FORMAT = -1, /* not a database file, or a size that does not match */
	OW_EGDB_E_CHECKSUM = -2 /* the values' checksum does not match */
};

/* An opened database: pointers into the caller's file, and the ranking
 * table. About 14 KB; the caller owns it (static storage is fine). */
typedef struct ow_egdb {
	int seeds;                                   /* N: positions of 0..N seeds */
	const uint8_t *values[OW_EGDB_MAX_SEEDS + 1]; /* into the file */
	uint32_t count[OW_EGDB_MAX_SEEDS + 1];
	uint32_t quiet_max[OW_EGDB_MAX_SEEDS + 1];
	uint32_t period[OW_EGDB_MAX_SEEDS + 1];
	/* below[r][m][a]: the compositions of r seeds into m pits whose first
	 * pit holds fewer than a */
	uint32_t below[OW_EGDB_MAX_SEEDS + 1][OW_PITS + 1][OW_EGDB_MAX_SEEDS + 2];
} ow_egdb;

/* Opens the database file of len bytes at file into *db (the file must
 * outlive *db). Returns 0, or OW_EGDB_E_FORMAT or OW_EGDB_E_CHECKSUM (*db
 * unusable). Reads every byte once (the checksum). */
int ow_egdb_open(ow_egdb *db, const uint8_t *file, size_t len);

/* The value (see above) of p for its side to move, 0..k, with quiet plies
 * since the last capture, or -1 when p holds more seeds than db (or db is
 * NULL). *exact is set to 1 when quiet is within the value's reach
 * (quiet_max), else to 0: the value is then the one after a capture, a
 * close estimate (the move limit is further away than it thinks). */
int ow_egdb_probe(const ow_egdb *db, const ow_pos *p, int quiet, int *exact);

/* Fills db's ranking table alone (for the generator). */
void ow_egdb_init_rank(ow_egdb *db);

/* The rank of the pits (mover's row first) holding k seeds among the
 * C(k+11, 11) such boards (db's ranking table must be filled). */
uint32_t ow_egdb_rank(const ow_egdb *db, const uint8_t pits[OW_PITS], int k);

/* The pits of rank r among the boards of k seeds (the inverse). */
void ow_egdb_unrank(const ow_egdb *db, uint32_t r, int k, uint8_t pits[OW_PITS]);

/* FNV-1a 64 of n bytes, continuing from h (start: 14695981039346656037). */
uint64_t ow_egdb_fnv(uint64_t h, const uint8_t *b, size_t n);

#endif
