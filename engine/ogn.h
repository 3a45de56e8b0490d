/* ogn.h: Oware Game Notation (OGN), the record format of Aualé, written
 * and read; and Aualé's one-line position text (its [FEN] tag).
 *
 * Same rules as oware.h: pure C11, no allocation, no I/O, no libc; text
 * goes into and comes from buffers the caller owns. Every move read is
 * validated by ow_game_play.
 *
 * The format, as Aualé (github.com/joansalasoler/auale) writes it:
 *   [Variant "Oware Abapa"]
 *   [Event "?"]
 *   [Site "?"]
 *   [Date "?"]
 *   [Round "?"]
 *   [South "?"]
 *   [North "?"]
 *   [Result "25-13"]
 *   [FEN "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"]     (only from a set position)
 *
 *   1. C f 2. B+2 a ... 25-13
 * Tags: [Name "value"], a value with \" for " and \\ for \; unknown values
 * are "?". Moves: SOUTH's pits are UPPER case A..F, North's lower case
 * a..f (the opposite of our letters); "N." numbers every second ply from
 * the first; "+N" after a move marks the seeds it captured (on the move
 * that ends a game, Aualé also counts the seeds the mover gathers from
 * its own row); lines shorter than 80 characters; the result, the final
 * scores "South-North", last, or "*" (not written) for a game not over.
 * FEN: the 12 pits a..F, South's score, North's score, then S or N for
 * the side to move, joined by '-'. Aualé ends a game at a position's
 * second occurrence and refuses any move after its end; our rules end it
 * at the third (docs/rules-oware.md). So the moves after the first move
 * that repeats a position are written in one comment "{Continued: 31...
 * c 32. A }", which Aualé shows as a comment and this reader reads as
 * moves.
 *
 * What the reader accepts: tags, one to a line, before the moves (any
 * order; the same name twice is refused; at most OW_OGN_MAX_TAGS, names
 * of letters, digits and '_' up to 31 bytes, values up to 255 bytes of
 * valid UTF-8 without control characters); then the movetext: move
 * numbers ("12." or "12..."), moves (one letter A-F or a-f, optionally
 * "+N"), comments in braces { } and variations in parentheses ( ) (both
 * skipped, both may span lines; variations may nest) but for a comment
 * opening with exactly "{Continued:", whose move numbers and moves are
 * read as the game's (nothing else in it; only the result after it), and at most one
 * result token ("S-N" or "*") which must be the last and agree with the
 * Result tag. A [Variant] other than "Oware Abapa" is refused; [FEN]
 * sets the start. A capture mark must be the seeds the move captured (or,
 * on the last move, that plus the seeds the mover then gathers, Aualé's
 * count). A Result of final scores must match the end of a game that is
 * over; "*" or any other value is kept as it is. Errors name the line:
 * nothing of a refused record is usable. */
#ifndef OW_OGN_H
#define OW_OGN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/oware.h"

#define OW_OGN_MAX_TAGS 32
#define OW_OGN_NAME 32   /* bytes of a tag name with its NUL */
#define OW_OGN_VALUE 256 /* bytes of a tag value with its NUL */
/* Plies in a record: more than any legal game can last (a capture comes
 * at least every 160 plies, and there are at most 24 captures). */
#define OW_OGN_MAX_PLIES 4096
/* Bytes of a FEN text with its NUL: "48-48-...-S" is at most 42. */
#define OW_FEN_SIZE 48
/* Bytes of a reader's error text with its NUL. */
#define OW_OGN_ERR 128

typedef struct ow_ogn_tag {
	char name[OW_OGN_NAME];   /* NUL-terminated */
	char value[OW_OGN_VALUE]; /* NUL-terminated, unescaped */
	int line;                 /* where it was read (1-based) */
} ow_ogn_tag;

/* A record read by ow_ogn_read: about 14 KB plus the game. */
typedef struct ow_ogn {
	ow_pos start;              /* [FEN], or the standard start */
	int has_fen;               /* 1 when [FEN] was given */
	int ntags;
	ow_ogn_tag tags[OW_OGN_MAX_TAGS]; /* in the order read */
	int nmoves;
	uint8_t moves[OW_OGN_MAX_PLIES];  /* pits 0..11 (our numbering) */
	ow_game game;              /* after every move */
	int line;                  /* on failure: the line of the error */
	char err[OW_OGN_ERR];      /* on failure: why, one line of ASCII */
} ow_ogn;

/* What ow_ogn_write puts in the tags: NUL-terminated UTF-8 without
 * control characters, at most 255 bytes; NULL or "" for "?". */
typedef struct ow_ogn_meta {
	const char *south;  /* [South]: South's player */
	const char *north;  /* [North] */
	const char *date;   /* [Date], e.g. "2026.11.30" */
	const char *result; /* [Result]: "*" or "S-N" (0 to 48 each; only the
	                     * final scores for a game over by the rules);
	                     * NULL or "": the final scores of a game over,
	                     * else "*" */
} ow_ogn_meta;

/* Writes the FEN text of p (e.g. "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S") into
 * buf, which holds OW_FEN_SIZE bytes; returns its length. */
int ow_fen_write(char buf[OW_FEN_SIZE], const ow_pos *p);

/* Reads a FEN text of len bytes into *p, validated as ow_pos_set does.
 * Returns 0, or -1 (malformed: not 14 counts and S or N) or an OW_E_* code
 * of ow_pos_set; *p is untouched on failure. */
int ow_fen_read(const char *text, size_t len, ow_pos *p);

/* Writes the record of the game from start (NULL: the standard start)
 * with the n moves (pits 0..11) into buf of cap bytes, NUL-terminated.
 * Returns its length, or a negative code: OW_E_* for an illegal move
 * (*bad its index), -20 a tag value that is not allowed (*bad: 0 south,
 * 1 north, 2 date, 3 result), -21 buf too small (*bad -1). bad may be
 * NULL. The text always fits in 16 * n + 2048 bytes. */
int ow_ogn_write(char *buf, size_t cap, const ow_pos *start,
                 const uint8_t *moves, int n, const ow_ogn_meta *meta,
                 int *bad);

#define OW_OGN_E_TAG (-20)
#define OW_OGN_E_SPACE (-21)

/* Reads the record text of len bytes (not NUL-terminated) into *out.
 * Returns 0, or -1 with out->line and out->err saying where and why (e.g.
 * line 9: "move 12 \"B\": the pit is empty"); the rest of *out is then
 * meaningless. */
int ow_ogn_read(const char *text, size_t len, ow_ogn *out);

/* The value of tag name in r, or NULL. */
const char *ow_ogn_tag_value(const ow_ogn *r, const char *name);

#endif
