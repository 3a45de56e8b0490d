/* togyz_exports.c: the Togyz Kumalak engine functions web/togyz.wasm
 * exports to JavaScript, in the shape of web/engine.wasm's (exports.c):
 * the same w_ names, so one loader can drive either game.
 *
 * Built only for wasm32 (web/part.mk). No allocator: one working game, one
 * scratch game for previews and one move record live in static storage, and
 * JavaScript reads them through the module's memory at the addresses these
 * functions return, at the offsets pinned below (tests/wasm/togyz.test.mjs
 * reads them; a JavaScript wrapper for the browser must use the same). */
#include <stddef.h>

#include "engine/togyz.h"

#define WX(name) __attribute__((export_name(#name)))

/* The byte offsets JavaScript reads: a change of the engine's structs must
 * fail here, not silently in the browser. */
_Static_assert(offsetof(tg_game, pos) == 0, "pos first");
_Static_assert(offsetof(tg_pos, pits) == 0, "pits at 0");
_Static_assert(offsetof(tg_pos, captured) == 18, "captured at 18");
_Static_assert(offsetof(tg_pos, tuzdyk) == 20, "tuzdyk at 20");
_Static_assert(offsetof(tg_pos, turn) == 22, "turn at 22");
_Static_assert(sizeof(tg_pos) == 24, "a position is 24 bytes");
_Static_assert(offsetof(tg_game, ply) == 24, "ply at 24");
_Static_assert(offsetof(tg_game, end) == 26, "end at 26");
_Static_assert(offsetof(tg_game, winner) == 27, "winner at 27");
_Static_assert(sizeof(tg_game) == 28, "a game is 28 bytes");
_Static_assert(offsetof(tg_move_info, pit) == 0, "pit at 0");
_Static_assert(offsetof(tg_move_info, nsown) == 1, "nsown at 1");
_Static_assert(offsetof(tg_move_info, sown) == 2, "sown at 2");
_Static_assert(offsetof(tg_move_info, last) == 164, "last at 164");
_Static_assert(offsetof(tg_move_info, captured) == 165, "captured at 165");
_Static_assert(offsetof(tg_move_info, seeds) == 166, "seeds at 166");
_Static_assert(offsetof(tg_move_info, tuzdyk) == 167, "tuzdyk at 167");
_Static_assert(offsetof(tg_move_info, to_tuzdyk) == 168, "to_tuzdyk at 168");
_Static_assert(TG_NONE == 255, "no tuzdyk, no pit: 255");

static tg_game game;         /* the working game; JS swaps its bytes in and out */
static tg_game scratch;      /* a copy of game for previews */
static tg_move_info info;    /* what the last w_play or w_preview did */
static int input[TG_PITS + 5]; /* pits, scores, tuzdyks (hole numbers, 0 none), turn */
static int input_field = -1;   /* the culprit of the last w_from_input failure */
static char notation[4];       /* w_notation's text */

/* Function prototypes keep -Wmissing-prototypes quiet: these are entry
 * points for JavaScript, not for C callers. */
tg_game *w_game(void);
tg_game *w_scratch(void);
tg_move_info *w_info(void);
int *w_input(void);
unsigned w_game_size(void);
void w_start(void);
int w_from_input(void);
int w_input_field(void);
unsigned w_legal(void);
int w_play(int pit);
int w_preview(int pit);
double w_perft(int depth);
char *w_notation(void);

/* Address of the working game (sizeof(tg_game) bytes). */
WX(w_game) tg_game *w_game(void) { return &game; }

/* Address of the game a preview leaves behind. */
WX(w_scratch) tg_game *w_scratch(void) { return &scratch; }

/* Address of the record of the last w_play or w_preview. */
WX(w_info) tg_move_info *w_info(void) { return &info; }

/* Address of 23 ints JavaScript fills before w_from_input: the 18 pits,
 * South's and North's scores, South's and North's tuzdyks (the hole number
 * on the opponent's row, 0 for none), the turn. */
WX(w_input) int *w_input(void) { return input; }

/* Size in bytes of a game, to copy one out of memory and back. */
WX(w_game_size) unsigned w_game_size(void) { return (unsigned)sizeof(tg_game); }

/* Resets the working game to the standard start. */
WX(w_start) void w_start(void) { tg_game_start(&game); }

/* Starts the working game from the position in w_input(). Returns 0, or
 * the TG_E_* code of tg_pos_set (w_input_field names the culprit); the game
 * is untouched on failure. */
WX(w_from_input) int w_from_input(void)
{
	tg_pos p;
	int err;

	input_field = -1;
	err = tg_pos_set(&p, input, input + TG_PITS, input + TG_PITS + 2, input[TG_PITS + 4],
	                 &input_field);
	if (err != TG_OK)
		return err;
	tg_game_from(&game, &p);
	return 0;
}

/* The field of the last failed w_from_input, as tg_pos_set names it. */
WX(w_input_field) int w_input_field(void) { return input_field; }

/* Legal moves of the working game as a bit mask of pits; 0 once it is over. */
WX(w_legal) unsigned w_legal(void)
{
	return game.end != OW_END_NONE ? 0 : tg_legal_mask(&game.pos);
}

/* Plays pit (0..17) in the working game; returns 0 or a TG_E_* code. */
WX(w_play) int w_play(int pit)
{
	return tg_game_play(&game, pit, &info);
}

/* Plays pit on a copy of the working game (w_scratch), leaving the game as
 * it is; returns 0 or a TG_E_* code. */
WX(w_preview) int w_preview(int pit)
{
	scratch = game;
	return tg_game_play(&scratch, pit, &info);
}

/* perft of the working game; a double holds every count up to depth 15. */
WX(w_perft) double w_perft(int depth)
{
	return (double)tg_perft(&game, depth);
}

/* Address of the Kazakh notation ("76", "58X", NUL-terminated) of the last
 * w_play or w_preview. */
WX(w_notation) char *w_notation(void)
{
	tg_notation(&info, notation);
	return notation;
}
