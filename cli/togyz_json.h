/* togyz_json.h: a Togyz Kumalak game and position as JSON, in the shape
 * `oware play --game togyz` prints (README "The oware tool"):
 * {"pits":[18 ints],"captured":{"south":N,"north":N},
 *  "tuzdyk":{"south":HOLE|null,"north":HOLE|null},"turn":"south"|"north",
 *  "legal":[1,...],"over":bool,"winner":null|"south"|"north"|"draw",
 *  "reason":null|"score"|"no_moves"}
 * Kept apart from cli/togyz.c so that the protocol can take it over (next
 * to protocol/game.c) when rooms learn the kind "togyz". */
#ifndef CLI_TOGYZ_JSON_H
#define CLI_TOGYZ_JSON_H

#include <stddef.h>

#include "engine/togyz.h"
#include "protocol/jw.h"

/* Writes g as the object above: pits in pit order (South's holes 1..9, then
 * North's), a tuzdyk as the hole number of the opponent's row it sits on,
 * legal as the hole numbers (1..9) of the side to move, empty once over. */
void togyz_game_write(jw *w, const tg_game *g);

/* Reads a position object {"pits":[18 ints],"captured":{"south":N,"north":N},
 * "tuzdyk":{"south":HOLE|null,"north":HOLE|null},"turn":"south"|"north"}
 * (other keys are ignored, so a printed game reads back) from JSON text of
 * len bytes (not NUL-terminated) into *out. Returns 0, or -1 with a
 * one-line reason naming the field in err (e.g. "pits[3]: negative count");
 * *out is untouched on failure. */
int togyz_position_parse(const char *text, size_t len, tg_pos *out, char *err, size_t errlen);

#endif
