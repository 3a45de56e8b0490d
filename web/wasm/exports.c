/* exports.c: the engine functions web/engine.wasm exports to JavaScript:
 * the game's w_ exports of every engine module (game_shim.h, for Oware:
 * oware_kind.h) and Oware's own, its records (OGN) and FEN.
 *
 * Built only for wasm32 (web/part.mk). No allocator: what JavaScript reads
 * lives in static storage, at the addresses these functions return.
 * web/engine.js owns the layout contract checked below. */
#include <stddef.h>

#include "engine/ogn.h"
#include "web/wasm/oware_kind.h"
#include "web/wasm/game_shim.h"

/* The byte offsets web/engine.js reads: a change of the engine's structs
 * must fail here, not silently in the browser. */
_Static_assert(offsetof(ow_game, pos) == 0, "pos first");
_Static_assert(offsetof(ow_pos, captured) == 12, "captured at 12");
_Static_assert(offsetof(ow_pos, turn) == 14, "turn at 14");
_Static_assert(offsetof(ow_game, ply) == 16, "ply at 16");
_Static_assert(offsetof(ow_game, quiet) == 18, "quiet at 18");
_Static_assert(offsetof(ow_game, end) == 20, "end at 20");
_Static_assert(offsetof(ow_game, winner) == 21, "winner at 21");
_Static_assert(offsetof(ow_move_info, nsown) == 1, "nsown at 1");
_Static_assert(offsetof(ow_move_info, sown) == 2, "sown at 2");
_Static_assert(offsetof(ow_move_info, ncaptured) == 50, "ncaptured at 50");
_Static_assert(offsetof(ow_move_info, captured) == 51, "captured at 51");
_Static_assert(offsetof(ow_move_info, seeds) == 57, "seeds at 57");
_Static_assert(offsetof(ow_move_info, grand_slam) == 58, "grand_slam at 58");

/* Records (engine/ogn.h). JavaScript writes UTF-8 text into ogn_text (at
 * most w_ogn_text_size() bytes) and calls w_ogn_read(len), or fills
 * ogn_moves, the tag texts and maybe w_input() and calls w_ogn_write;
 * see the functions below. */
#define OGN_TEXT (128 * 1024) /* > 16 * OW_OGN_MAX_PLIES + 2048 */
#define OGN_TAG_TEXT OW_OGN_VALUE
static char ogn_text[OGN_TEXT];
static ow_ogn ogn_rec;                   /* the last record read */
static uint8_t ogn_moves[OW_OGN_MAX_PLIES];
static char ogn_tags[4][OGN_TAG_TEXT];   /* south, north, date, result */
static int ogn_bad = -1;


/* Function prototypes keep -Wmissing-prototypes quiet: these are entry
 * points for JavaScript, not for C callers. */
char *w_ogn_text(void);
unsigned w_ogn_text_size(void);
int w_ogn_read(unsigned len);
int w_ogn_line(void);
const char *w_ogn_err(void);
const ow_pos *w_ogn_start(void);
int w_ogn_has_fen(void);
ow_game *w_ogn_game(void);
int w_ogn_nmoves(void);
int w_ogn_move(int i);
int w_ogn_ntags(void);
const char *w_ogn_tag_name(int i);
const char *w_ogn_tag_value(int i);
uint8_t *w_ogn_moves(void);
char *w_ogn_tag(int i);
int w_ogn_write(int n, int from_input);
int w_ogn_bad(void);
int w_fen_write(void);
int w_fen_read(unsigned len);

/* Address of the record text buffer (w_ogn_text_size() bytes): the input
 * of w_ogn_read and w_fen_read, the output of w_ogn_write and w_fen_write. */
WX(w_ogn_text) char *w_ogn_text(void) { return ogn_text; }
WX(w_ogn_text_size) unsigned w_ogn_text_size(void) { return OGN_TEXT; }

/* Reads the record of len bytes at w_ogn_text(). Returns 0, or -1 with
 * w_ogn_line() and w_ogn_err() (NUL-terminated ASCII) saying why; the
 * record's parts below are meaningful only after 0. */
WX(w_ogn_read) int w_ogn_read(unsigned len)
{
	return ow_ogn_read(ogn_text, len > OGN_TEXT ? OGN_TEXT : len, &ogn_rec);
}
WX(w_ogn_line) int w_ogn_line(void) { return ogn_rec.line; }
WX(w_ogn_err) const char *w_ogn_err(void) { return ogn_rec.err; }
/* The record's start (an ow_pos: 12 pits, 2 scores, turn at 14). */
WX(w_ogn_start) const ow_pos *w_ogn_start(void) { return &ogn_rec.start; }
WX(w_ogn_has_fen) int w_ogn_has_fen(void) { return ogn_rec.has_fen; }
/* The game after the record's moves (the layout of w_game()). */
WX(w_ogn_game) ow_game *w_ogn_game(void) { return &ogn_rec.game; }
WX(w_ogn_nmoves) int w_ogn_nmoves(void) { return ogn_rec.nmoves; }
/* Move i (pit 0..11, our numbering), or -1 out of range. */
WX(w_ogn_move) int w_ogn_move(int i)
{
	return i >= 0 && i < ogn_rec.nmoves ? ogn_rec.moves[i] : -1;
}
WX(w_ogn_ntags) int w_ogn_ntags(void) { return ogn_rec.ntags; }
/* Tag i's name and unescaped value (NUL-terminated UTF-8), or 0. */
WX(w_ogn_tag_name) const char *w_ogn_tag_name(int i)
{
	return i >= 0 && i < ogn_rec.ntags ? ogn_rec.tags[i].name : 0;
}
WX(w_ogn_tag_value) const char *w_ogn_tag_value(int i)
{
	return i >= 0 && i < ogn_rec.ntags ? ogn_rec.tags[i].value : 0;
}

/* Where JavaScript puts the moves to write (OW_OGN_MAX_PLIES pits). */
WX(w_ogn_moves) uint8_t *w_ogn_moves(void) { return ogn_moves; }
/* Tag text i (0 South, 1 North, 2 Date, 3 Result; 256 bytes each, NUL-
 * terminated UTF-8; empty: the default, "?" or the result of the rules). */
WX(w_ogn_tag) char *w_ogn_tag(int i) { return i >= 0 && i < 4 ? ogn_tags[i] : 0; }

/* Writes the record of n moves at w_ogn_moves() from the standard start,
 * or from the position in w_input() when from_input, into w_ogn_text().
 * Returns its length, or OW_E_* (an illegal move or position; w_ogn_bad()
 * the move's index, or -1 for the position), -20 (tag w_ogn_bad() not
 * allowed) or -21 (too long). */
WX(w_ogn_write) int w_ogn_write(int n, int from_input)
{
	ow_ogn_meta meta;
	const char *v[4];
	ow_pos p;
	int rc;

	ogn_bad = -1;
	if (n < 0 || n > OW_OGN_MAX_PLIES)
		return OW_OGN_E_SPACE;
	if (from_input) {
		rc = ow_pos_set(&p, input, input + OW_PITS, input[OW_PITS + 2], 0);
		if (rc)
			return rc;
	}
	for (int i = 0; i < 4; i++) {
		ogn_tags[i][OGN_TAG_TEXT - 1] = 0;
		v[i] = ogn_tags[i][0] ? ogn_tags[i] : 0;
	}
	meta.south = v[0];
	meta.north = v[1];
	meta.date = v[2];
	meta.result = v[3];
	return ow_ogn_write(ogn_text, OGN_TEXT, from_input ? &p : 0, ogn_moves, n,
	                    &meta, &ogn_bad);
}
WX(w_ogn_bad) int w_ogn_bad(void) { return ogn_bad; }

/* Writes the FEN of the working game's position into w_ogn_text() (NUL-
 * terminated); returns its length. */
WX(w_fen_write) int w_fen_write(void) { return ow_fen_write(ogn_text, &game.pos); }

/* Starts the working game from the FEN of len bytes at w_ogn_text().
 * Returns 0, or -1 (malformed) or an OW_E_* code of ow_pos_set; the game
 * is untouched on failure. */
WX(w_fen_read) int w_fen_read(unsigned len)
{
	ow_pos p;
	int rc = ow_fen_read(ogn_text, len > OGN_TEXT ? OGN_TEXT : len, &p);

	if (!rc)
		ow_game_from(&game, &p);
	return rc;
}
