/* togyz.h: a Togyz Kumalak game, position and moves as JSON, in the shape
 * `oware play --game togyz` prints (docs/cli.md) and a Togyz
 * room's `state.game` reuses (PROTOCOL.md "Togyz Kumalak rooms"):
 * {"pits":[18 ints],"captured":{"south":N,"north":N},
 *  "tuzdyk":{"south":HOLE|null,"north":HOLE|null},"turn":"south"|"north",
 *  "legal":[1,...],"over":bool,"winner":null|"south"|"north"|"draw",
 *  "reason":null|"score"|"no_moves"} */
#ifndef PROTO_TOGYZ_H
#define PROTO_TOGYZ_H

#include <stddef.h>
#include <stdint.h>

#include "engine/togyz.h"
#include "protocol/jw.h"

/* Writes g as the object above: pits in pit order (South's holes 1..9, then
 * North's), a tuzdyk as the hole number of the opponent's row it sits on,
 * legal as the hole numbers (1..9) of the side to move, empty once over. */
void proto_togyz_game_write(jw *w, const tg_game *g);

/* The same, for a game that ended outside the engine's rules when reason
 * is not NULL (a resignation, say): then over is true, legal empty, and
 * winner and reason are these (an ow_winner). */
void proto_togyz_game_write_end(jw *w, const tg_game *g, const char *reason, int winner);

/* Writes p as a position object: pits, captured, tuzdyk and turn (the
 * shape proto_togyz_position_parse reads). */
void proto_togyz_position_write(jw *w, const tg_pos *p);

/* Writes moves (pits 0..17) as an array of hole-number strings "1".."9",
 * each of its mover's row. */
void proto_togyz_moves_write(jw *w, const uint8_t *pits, int n);

/* Writes what a move did as `state.last` of a Togyz room (PROTOCOL.md),
 * or null for m NULL. */
void proto_togyz_last_write(jw *w, const tg_move_info *m);

/* Reads a position object {"pits":[18 ints],"captured":{"south":N,"north":N},
 * "tuzdyk":{"south":HOLE|null,"north":HOLE|null},"turn":"south"|"north"}
 * (other keys are ignored, so a printed game reads back) from JSON text of
 * len bytes (not NUL-terminated) into *out. Returns 0, or -1 with a
 * one-line reason naming the field in err (e.g. "pits[3]: negative count");
 * *out is untouched on failure. */
int proto_togyz_position_parse(const char *text, size_t len, tg_pos *out, char *err, size_t errlen);

/* The same from a parsed JSON value j (a jansson json_t; create's
 * `position`): 0, or -1 with the reason in err, *out untouched. */
struct json_t;
int proto_togyz_position_json(const struct json_t *j, tg_pos *out, char *err, size_t errlen);

#endif
