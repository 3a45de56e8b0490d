/* togyz_kind.h: Togyz Kumalak as a shim_kind (shim.h), for
 * web/togyz.wasm and web/togyz-ai.wasm. Included once per module: its
 * functions are static. */
#ifndef WEB_WASM_TOGYZ_KIND_H
#define WEB_WASM_TOGYZ_KIND_H

#include "engine/togyz.h"
#include "web/wasm/shim.h"

#define SHIM_GAME tg_game
#define SHIM_INFO tg_move_info
/* The 18 pits, South's and North's scores, South's and North's tuzdyks
 * (the hole number on the opponent's row, 0 for none), the turn. */
#define SHIM_INPUT (TG_PITS + 5)

static void togyz_start(void *g) { tg_game_start(g); }

static int togyz_from_input(void *g, const int *in, int *field)
{
	tg_pos p;
	int err = tg_pos_set(&p, in, in + TG_PITS, in + TG_PITS + 2, in[TG_PITS + 4], field);

	if (err == TG_OK)
		tg_game_from(g, &p);
	return err;
}

static unsigned togyz_legal(const void *g)
{
	const tg_game *t = g;

	return t->end != OW_END_NONE ? 0 : tg_legal_mask(&t->pos);
}

static int togyz_play(void *g, int pit, void *info) { return tg_game_play(g, pit, info); }
static uint64_t togyz_perft(const void *g, int depth) { return tg_perft(g, depth); }

static const shim_kind kind = {
	.start = togyz_start,
	.from_input = togyz_from_input,
	.legal = togyz_legal,
	.play = togyz_play,
	.perft = togyz_perft,
};

#endif
