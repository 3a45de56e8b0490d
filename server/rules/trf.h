/* trf.h: the FIDE Tournament Report File (TRF-16, Handbook C.04 Annex 2)
 * read into a pair_event and written from one: the 012 line (the event's
 * name), XXR (rounds planned), XXS (the rules of the Dutch system the event
 * follows: "XXS FIDE Dutch 2025" or "XXS FIDE Dutch 2017"; a file without
 * it reads as 2025) and XXC (white1 / black1: the first round's colour,
 * as pairing programs read them), and a 001 line per player with
 * its starting rank, name, rating, points, rank and ten columns a round
 * (opponent, colour, result). Other lines are skipped on reading. Pure:
 * it reads from and writes to the caller's memory, never a file. */
#ifndef SRV_TRF_H
#define SRV_TRF_H

#include <stddef.h>

#include "server/rules/pairing.h"

/* Columns are characters (Unicode code points of the UTF-8 text), as
 * JaVaFo and bbpPairings read them, not bytes: a name of 33 characters
 * fills columns 15-47 whatever its bytes. A byte that does not start a
 * valid UTF-8 sequence counts as one column (a Latin-1 file reads as
 * it is laid out). */
#define TRF_NAME_LEN 33          /* characters: columns 15-47 of a 001 line */
#define TRF_NAME_BYTES (TRF_NAME_LEN * 4)
#define TRF_TITLE_LEN 80         /* characters of the 012 line's text */
#define TRF_TITLE_BYTES (TRF_TITLE_LEN * 4)

/* A tournament file in memory, owned by the caller (about 200 kB). */
typedef struct trf_file {
	char title[TRF_TITLE_BYTES + 1];           /* the 012 line's text */
	char names[PAIR_MAX_PLAYERS][TRF_NAME_BYTES + 1];
	/* The rank column (86-89) trf_write gives each starting rank - 1: 0
	 * for the rank by points (then starting rank); trf_read leaves 0. */
	int rank[PAIR_MAX_PLAYERS];
	pair_event ev;
} trf_file;

/* Copies the first max characters (at most) of src into dst (cap bytes,
 * cap >= 4 * max + 1), cut between characters, NUL-terminated. Returns
 * the characters copied. */
size_t trf_cut(char *dst, size_t cap, const char *src, size_t max);

/* Reads len bytes of TRF text (lines ended by LF, CR LF or CR). Players
 * may come in any order; their starting ranks must be 1..PAIR_MAX_PLAYERS
 * and the field is as large as the highest. Returns 0, or PAIR_EINVAL /
 * PAIR_ERANGE with the line number and the reason in err; then out is
 * undefined. The result is checked with pair_check. */
int trf_read(const char *text, size_t len, trf_file *out, char *err, size_t errlen);

/* Writes f as TRF text to buf (cap bytes, NUL-terminated, lines ended by
 * LF): 012, XXR, XXS, XXC, then the players by starting rank with their points
 * computed from the results, each name padded (or cut) to 33 characters. Returns the length written, or the length it
 * would need (>= cap) when buf is too small, as snprintf does. */
size_t trf_write(const trf_file *f, char *buf, size_t cap);

#endif
