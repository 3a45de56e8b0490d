/* game_shim.h: the w_ exports every engine module has (web/engine.wasm,
 * web/togyz.wasm), written once. A module includes its kind's header
 * (oware_kind.h, togyz_kind.h: SHIM_GAME, SHIM_INFO, SHIM_INPUT and the
 * record `kind`), then this file, exactly once; one loader in JavaScript
 * then drives either game through the same names.
 *
 * No allocator: one working game, one scratch game for previews and one
 * move record live in static storage, and JavaScript reads them through
 * the module's memory at the addresses these functions return, at the
 * offsets each module pins with _Static_assert. */
#ifndef WEB_WASM_GAME_SHIM_H
#define WEB_WASM_GAME_SHIM_H

#include "web/wasm/shim.h"

static SHIM_GAME game;         /* the working game; JS swaps its bytes in and out */
static SHIM_GAME scratch;      /* a copy of game for previews */
static SHIM_INFO info;         /* what the last w_play or w_preview did */
static int input[SHIM_INPUT];  /* the position w_from_input reads */
static int input_field = -1;   /* the culprit of the last w_from_input failure */

/* Function prototypes keep -Wmissing-prototypes quiet: these are entry
 * points for JavaScript, not for C callers. */
SHIM_GAME *w_game(void);
SHIM_GAME *w_scratch(void);
SHIM_INFO *w_info(void);
int *w_input(void);
unsigned w_game_size(void);
void w_start(void);
int w_from_input(void);
int w_input_field(void);
unsigned w_legal(void);
int w_play(int pit);
int w_preview(int pit);
double w_perft(int depth);

/* Address of the working game (sizeof(SHIM_GAME) bytes). */
WX(w_game) SHIM_GAME *w_game(void) { return &game; }

/* Address of the game a preview leaves behind. */
WX(w_scratch) SHIM_GAME *w_scratch(void) { return &scratch; }

/* Address of the record of the last w_play or w_preview. */
WX(w_info) SHIM_INFO *w_info(void) { return &info; }

/* Address of the SHIM_INPUT ints JavaScript fills before w_from_input
 * (Oware 15: pits, South's and North's scores, turn; Togyz Kumalak 23:
 * its tuzdyks before the turn). */
WX(w_input) int *w_input(void) { return input; }

/* Size in bytes of a game, to copy one out of memory and back. */
WX(w_game_size) unsigned w_game_size(void) { return (unsigned)sizeof(SHIM_GAME); }

/* Resets the working game to the standard start. */
WX(w_start) void w_start(void) { kind.start(&game); }

/* Starts the working game from the position in w_input(). Returns 0, or
 * the engine's code of its pos_set (w_input_field names the culprit); the
 * game is untouched on failure. */
WX(w_from_input) int w_from_input(void)
{
	input_field = -1;
	return kind.from_input(&game, input, &input_field);
}

/* The field of the last failed w_from_input, as the engine names it. */
WX(w_input_field) int w_input_field(void) { return input_field; }

/* Legal moves of the working game as a bit mask of pits; 0 once it is over. */
WX(w_legal) unsigned w_legal(void) { return kind.legal(&game); }

/* Plays pit in the working game; returns 0 or the engine's code. */
WX(w_play) int w_play(int pit) { return kind.play(&game, pit, &info); }

/* Plays pit on a copy of the working game (w_scratch), leaving the game as
 * it is; returns 0 or the engine's code. */
WX(w_preview) int w_preview(int pit)
{
	scratch = game;
	return kind.play(&scratch, pit, &info);
}

/* perft of the working game; a double holds every count up to depth 14
 * (Oware) or 15 (Togyz Kumalak). */
WX(w_perft) double w_perft(int depth) { return (double)kind.perft(&game, depth); }

#endif
