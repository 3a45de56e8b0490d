/* game.h: a game and a position as JSON (parsed in game.c, written with jw),
 * in the shape that `oware play` prints and the protocol's `state.game`
 * reuses; and the pieces of that shape every kind shares (proto_board_*),
 * which protocol/togyz.c builds its own on. An Oware game:
 * {"pits":[12],"captured":{"south":N,"north":N},"turn":"south"|"north",
 *  "legal":["a",...],"over":bool,"winner":null|"south"|"north"|"draw",
 *  "reason":null|"score"|"repetition"|"move_limit"|"no_moves"} */
#ifndef PROTO_GAME_H
#define PROTO_GAME_H

#include <stddef.h>
#include <stdint.h>

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

/* The pieces each kind's JSON is made of (a kind is one record in
 * protocol/kind.c; these keep its shape the same as the others'). */

/* Writes the keys "pits":[n ints],"captured":{"south":N,"north":N} into
 * an open object. */
void proto_board_keys(jw *w, const uint8_t *pits, int n, const uint8_t captured[2]);

/* Writes the keys "legal","over","winner","reason" and closes the object:
 * legal holds move(w, pit) for each pit i < n set in mask (pass 0 for a
 * game over); over, winner and reason as proto_game_write_end says. */
void proto_board_end(jw *w, uint32_t mask, int n, void (*move)(jw *w, int pit),
                     int end, int game_winner, const char *reason, int winner);

/* Reads an object's "pits" (n integers) and "captured" ({"south":N,
 * "north":N}) into v and c, clamping a number beyond an int to -1 or
 * seeds + 1: 0, or -1 with the reason naming the field in err. */
int proto_board_json(const struct json_t *j, int n, int seeds, int *v, int c[2],
                     char *err, size_t errlen);

/* Says in err why a kind's pos_set refused a count: field < 0 the sum,
 * below n a pit, else fields[field - n]; negative or over seeds. */
void proto_board_count_err(char *err, size_t errlen, int field, int n,
                           const char *const *fields, int negative, int seeds);

/* Parses JSON text of len bytes: the value (the caller's to json_decref),
 * or NULL with "position: malformed JSON at character N: ..." in err. */
struct json_t *proto_board_load(const char *text, size_t len, char *err, size_t errlen);

/* Replaces every byte of s outside printable ASCII with '?'. The JSON
 * parser's error text quotes the input near the error, cut at any byte
 * (e.g. "invalid escape near '\xc3'"): this makes it one line of valid
 * UTF-8 before it goes into a reason (a JSON string must be valid UTF-8). */
void proto_printable_ascii(char *s);

#endif
