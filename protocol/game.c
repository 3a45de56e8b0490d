/* game.c: games and positions as JSON, in the shape of `oware play`: the
 * pieces every kind shares, and Oware's. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "protocol/game.h"

const char *proto_side_name(int side)
{
	return side == OW_SOUTH ? "south" : side == OW_NORTH ? "north" : NULL;
}

int proto_side_parse(const char *s)
{
	if (s && !strcmp(s, "south"))
		return OW_SOUTH;
	if (s && !strcmp(s, "north"))
		return OW_NORTH;
	return -1;
}

const char *proto_end_name(int end)
{
	switch (end) {
	case OW_END_SCORE: return "score";
	case OW_END_REPETITION: return "repetition";
	case OW_END_MOVE_LIMIT: return "move_limit";
	case OW_END_NO_MOVES: return "no_moves";
	}
	return NULL;
}

const char *proto_winner_name(int winner)
{
	return winner == OW_DRAW ? "draw" : proto_side_name(winner);
}

void proto_pits_write(jw *w, const uint8_t *pits, int n)
{
	jw_arr(w);
	for (int i = 0; i < n; i++)
		jw_char(w, ow_pit_letter(pits[i]));
	jw_arr_end(w);
}

void proto_board_keys(jw *w, const uint8_t *pits, int n, const uint8_t captured[2])
{
	jw_key(w, "pits");
	jw_arr(w);
	for (int i = 0; i < n; i++)
		jw_int(w, pits[i]);
	jw_arr_end(w);
	jw_key(w, "captured");
	jw_obj(w);
	jw_key(w, "south");
	jw_int(w, captured[OW_SOUTH]);
	jw_key(w, "north");
	jw_int(w, captured[OW_NORTH]);
	jw_obj_end(w);
}

void proto_board_end(jw *w, uint32_t mask, int n, void (*move)(jw *w, int pit),
                     int end, int game_winner, const char *reason, int winner)
{
	jw_key(w, "legal");
	jw_arr(w);
	for (int i = 0; i < n; i++)
		if (mask & (1u << i))
			move(w, i);
	jw_arr_end(w);
	jw_key(w, "over");
	jw_bool(w, reason || end != OW_END_NONE);
	jw_key(w, "winner");
	jw_str(w, proto_winner_name(reason ? winner : game_winner));
	jw_key(w, "reason");
	jw_str(w, reason ? reason : proto_end_name(end));
	jw_obj_end(w);
}

static void letter_write(jw *w, int pit)
{
	jw_char(w, ow_pit_letter(pit));
}

void proto_game_write_end(jw *w, const ow_game *g, const char *reason, int winner)
{
	const ow_pos *p = &g->pos;
	unsigned mask = !reason && g->end == OW_END_NONE ? ow_legal_mask(p) : 0;

	jw_obj(w);
	proto_board_keys(w, p->pits, OW_PITS, p->captured);
	jw_key(w, "turn");
	jw_str(w, proto_side_name(p->turn));
	proto_board_end(w, mask, OW_PITS, letter_write, g->end, g->winner, reason, winner);
}

void proto_game_write(jw *w, const ow_game *g)
{
	proto_game_write_end(w, g, NULL, OW_NOBODY);
}

/* An integer in [-2^31, 2^31), clamped to -1 or seeds + 1 beyond (still
 * out of range), or a type error. */
static int get_int(const json_t *v, int seeds, int *out)
{
	json_int_t x;

	if (!json_is_integer(v))
		return -1;
	x = json_integer_value(v);
	if (x < -2147483647 - 1 || x > 2147483647)
		x = x < 0 ? -1 : seeds + 1;
	*out = (int)x;
	return 0;
}

int proto_board_json(const json_t *j, int n, int seeds, int *v, int c[2], char *err, size_t errlen)
{
	const json_t *pits, *cap;

	if (!json_is_object(j)) {
		snprintf(err, errlen, "position: must be a JSON object");
		return -1;
	}
	pits = json_object_get(j, "pits");
	if (!json_is_array(pits) || json_array_size(pits) != (size_t)n) {
		snprintf(err, errlen, "pits: must be an array of %d integers", n);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (get_int(json_array_get(pits, (size_t)i), seeds, &v[i])) {
			snprintf(err, errlen, "pits[%d]: must be an integer", i);
			return -1;
		}
	cap = json_object_get(j, "captured");
	if (!json_is_object(cap)) {
		snprintf(err, errlen, "captured: must be an object {\"south\":N,\"north\":N}");
		return -1;
	}
	for (int s = 0; s < 2; s++)
		if (get_int(json_object_get(cap, proto_side_name(s)), seeds, &c[s])) {
			snprintf(err, errlen, "captured.%s: must be an integer", proto_side_name(s));
			return -1;
		}
	return 0;
}

void proto_board_count_err(char *err, size_t errlen, int field, int n,
                           const char *const *fields, int negative, int seeds)
{
	char more[32];
	const char *what = more;

	snprintf(more, sizeof more, "more than %d seeds", seeds);
	if (negative)
		what = "negative count";
	if (field < 0)
		snprintf(err, errlen, "position: pits and captured must add up to %d", seeds);
	else if (field < n)
		snprintf(err, errlen, "pits[%d]: %s", field, what);
	else
		snprintf(err, errlen, "%s: %s", fields[field - n], what);
}

json_t *proto_board_load(const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);

	if (!j) {
		proto_printable_ascii(je.text);
		snprintf(err, errlen, "position: malformed JSON at character %d: %s", je.position, je.text);
	}
	return j;
}

int proto_position_json(const json_t *j, ow_pos *out, char *err, size_t errlen)
{
	static const char *const fields[] = {"captured.south", "captured.north", "turn"};
	int v[OW_PITS], c[2], side, field, rc;

	if (proto_board_json(j, OW_PITS, OW_SEEDS, v, c, err, errlen))
		return -1;
	side = proto_side_parse(json_string_value(json_object_get(j, "turn")));
	rc = ow_pos_set(out, v, c, side < 0 ? 2 : side, &field);
	if (rc == OW_OK)
		return 0;
	if (rc == OW_E_TURN)
		snprintf(err, errlen, "turn: must be \"south\" or \"north\"");
	else
		proto_board_count_err(err, errlen, field, OW_PITS, fields, rc == OW_E_NEGATIVE, OW_SEEDS);
	return -1;
}

void proto_printable_ascii(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

int proto_position_parse(const char *text, size_t len, ow_pos *out, char *err, size_t errlen)
{
	json_t *j = proto_board_load(text, len, err, errlen);
	int rc;

	if (!j)
		return -1;
	rc = proto_position_json(j, out, err, errlen);
	json_decref(j);
	return rc;
}

void proto_position_write(jw *w, const ow_pos *p)
{
	jw_obj(w);
	proto_board_keys(w, p->pits, OW_PITS, p->captured);
	jw_key(w, "turn");
	jw_str(w, proto_side_name(p->turn));
	jw_obj_end(w);
}
