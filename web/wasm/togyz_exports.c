/* togyz_exports.c: the Togyz Kumalak engine functions web/togyz.wasm
 * exports to JavaScript: the same w_ names as web/engine.wasm's (the
 * shared game_shim.h, for Togyz Kumalak: togyz_kind.h), so one loader can
 * drive either game, plus w_notation.
 *
 * Built only for wasm32 (web/part.mk). JavaScript reads the game and the
 * move record at the offsets pinned below (tests/wasm/togyz.test.mjs
 * reads them; web/togyz.js uses the same). */
#include <stddef.h>

#include "web/wasm/togyz_kind.h"
#include "web/wasm/game_shim.h"

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

static char notation[4];       /* w_notation's text */

/* An entry point for JavaScript (a prototype for -Wmissing-prototypes). */
char *w_notation(void);

/* Address of the Kazakh notation ("76", "58X", NUL-terminated) of the last
 * w_play or w_preview. */
WX(w_notation) char *w_notation(void)
{
	tg_notation(&info, notation);
	return notation;
}
