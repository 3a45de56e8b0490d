/* oware_kind.h: Oware as a shim_kind (shim.h), for web/engine.wasm and
 * web/ai.wasm. Included once per module: its functions are static. */
#ifndef WEB_WASM_OWARE_KIND_H
#define WEB_WASM_OWARE_KIND_H

#include "engine/oware.h"
#include "web/wasm/shim.h"

#define SHIM_GAME ow_game
#define SHIM_INFO ow_move_info
#define SHIM_INPUT (OW_PITS + 3) /* pits a..F, South's and North's scores, turn */

static void oware_start(void *g) { ow_game_start(g); }

static int oware_from_input(void *g, const int *in, int *field)
{
	ow_pos p;
	int err = ow_pos_set(&p, in, in + OW_PITS, in[OW_PITS + 2], field);

	if (err == OW_OK)
		ow_game_from(g, &p);
	return err;
}

static unsigned oware_legal(const void *g)
{
	const ow_game *o = g;

	return o->end != OW_END_NONE ? 0 : ow_legal_mask(&o->pos);
}

static int oware_play(void *g, int pit, void *info) { return ow_game_play(g, pit, info); }
static uint64_t oware_perft(const void *g, int depth) { return ow_perft(g, depth); }

static const shim_kind kind = {
	.start = oware_start,
	.from_input = oware_from_input,
	.legal = oware_legal,
	.play = oware_play,
	.perft = oware_perft,
};

#endif
