/* exports.c: the engine functions web/engine.wasm exports to JavaScript.
 *
 * Built only for wasm32 (web/part.mk). No allocator: one working game, one
 * scratch game for previews and one move record live in static storage, and
 * JavaScript reads them through the module's memory at the addresses these
 * functions return. web/engine.js owns the layout contract checked below. */
#include <stddef.h>

#include "engine/oware.h"

#define WX(name) __attribute__((export_name(#name)))

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

static ow_game game;         /* the working game; JS swaps its bytes in and out */
static ow_game scratch;      /* a copy of game for previews */
static ow_move_info info;    /* what the last w_play or w_preview did */
static int input[OW_PITS + 3]; /* pits, south score, north score, turn */
static int input_field = -1;   /* the culprit of the last w_from_input failure */


/* Function prototypes keep -Wmissing-prototypes quiet: these are entry
 * points for JavaScript, not for C callers. */
ow_game *w_game(void);
ow_game *w_scratch(void);
ow_move_info *w_info(void);
int *w_input(void);
unsigned w_game_size(void);
void w_start(void);
int w_from_input(void);
int w_input_field(void);
unsigned w_legal(void);
int w_play(int pit);
int w_preview(int pit);
double w_perft(int depth);

/* Address of the working game (sizeof(ow_game) bytes). */
WX(w_game) ow_game *w_game(void) { return &game; }

/* Address of the game a preview leaves behind. */
WX(w_scratch) ow_game *w_scratch(void) { return &scratch; }

/* Address of the record of the last w_play or w_preview. */
WX(w_info) ow_move_info *w_info(void) { return &info; }

/* Address of 15 ints JavaScript fills before w_from_input. */
WX(w_input) int *w_input(void) { return input; }

/* Size in bytes of a game, to copy one out of memory and back. */
WX(w_game_size) unsigned w_game_size(void) { return (unsigned)sizeof(ow_game); }

/* Resets the working game to the standard start. */
WX(w_start) void w_start(void) { ow_game_start(&game); }

/* Starts the working game from the position in w_input(). Returns 0, or
 * the OW_E_* code of ow_pos_set (w_input_field names the culprit); the game
 * is untouched on failure. */
WX(w_from_input) int w_from_input(void)
{
	ow_pos p;
	int err;

	input_field = -1;
	err = ow_pos_set(&p, input, input + OW_PITS, input[OW_PITS + 2], &input_field);
	if (err != OW_OK)
		return err;
	ow_game_from(&game, &p);
	return 0;
}

/* The field of the last failed w_from_input, as ow_pos_set names it. */
WX(w_input_field) int w_input_field(void) { return input_field; }

/* Legal moves of the working game as a bit mask; 0 once it is over. */
WX(w_legal) unsigned w_legal(void)
{
	return game.end != OW_END_NONE ? 0 : ow_legal_mask(&game.pos);
}

/* Plays pit (0..11) in the working game; returns 0 or an OW_E_* code. */
WX(w_play) int w_play(int pit)
{
	return ow_game_play(&game, pit, &info);
}

/* Plays pit on a copy of the working game (w_scratch), leaving the game as
 * it is; returns 0 or an OW_E_* code. */
WX(w_preview) int w_preview(int pit)
{
	scratch = game;
	return ow_game_play(&scratch, pit, &info);
}

/* perft of the working game; a double holds every count up to depth 14. */
WX(w_perft) double w_perft(int depth)
{
	return (double)ow_perft(&game, depth);
}
