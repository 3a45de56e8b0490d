/* game.h: a game and a position as JSON (parsed in game.c, written with jw),
 * in the shape that
 * `oware play` prints and the protocol's `state.game` reuses:
 * {"pits":[12],"captured":{"south":N,"north":N},"turn":"south"|"north",
 *  "legal":["a",...],"over":bool,"winner":null|"south"|"north"|"draw",
 *  "reason":null|"score"|"repetition"|"move_limit"|"no_moves"} */
#ifndef PROTO_GAME_H
#define PROTO_GAME_H

#include <stddef.h>

#include "engine/oware.h"
#include "protocol/jw.h"

/* "south" / "north" for OW_SOUTH / OW_NORTH, NULL otherwise. */
const char *proto_side_name(int side);
/* OW_SOUTH / OW_NORTH for "south" / "north", -1 otherwise (s may be NULL). */
int proto_side_parse(const char *s);
/* "score", "repetition", "move_limit", "no_moves"; NULL for OW_END_NONE. */
const char *proto_end_name(int end);
/* "south", "north", "draw"; NULL for OW_NOBODY. */
const char *proto_winner_name(int winner);

/* Writes g as the object above. */
void proto_game_write(jw *w, const ow_game *g);

/* The same, for a game that ended outside the engine's rules when reason
 * is not NULL (a resignation, say): then over is true, legal empty, and
 * winner and reason are these (winner an OW_WINNER_* / OW_DRAW / OW_NOBODY). */
void proto_game_write_end(jw *w, const ow_game *g, const char *reason, int winner);

/* Writes an array of pit letters, e.g. ["b","c"]. */
void proto_pits_write(jw *w, const uint8_t *pits, int n);

/* Reads a position object {"pits":[12 ints],"captured":{"south":N,"north":N},
 * "turn":"south"|"north"} from JSON text of len bytes (not NUL-terminated)
 * into *out. Returns 0, or -1 with a one-line reason naming the field in err
 * (e.g. "pits[3]: negative count"); *out is untouched on failure. */
int proto_position_parse(const char *text, size_t len, ow_pos *out, char *err, size_t errlen);

/* The same from a parsed JSON value j (a jansson json_t; create's
 * `position`): 0, or -1 with the reason in err, *out untouched. */
struct json_t;
int proto_position_json(const struct json_t *j, ow_pos *out, char *err, size_t errlen);

/* Writes p as the object above (the shape proto_position_parse reads). */
void proto_position_write(jw *w, const ow_pos *p);

/* Replaces every byte of s outside printable ASCII with '?'. The JSON
 * parser's error text quotes the input near the error, cut at any byte
 * (e.g. "invalid escape near '\xc3'"): this makes it one line of valid
 * UTF-8 before it goes into a reason (a JSON string must be valid UTF-8). */
void proto_printable_ascii(char *s);

#endif
