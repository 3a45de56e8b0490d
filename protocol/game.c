/* game.c: games and positions as JSON, in the shape of `oware play`. */
#include <stdio.h>
#include <string.h>

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

json_t *proto_pits_json(const uint8_t *pits, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++) {
		char s[2] = {ow_pit_letter(pits[i]), 0};

		if (json_array_append_new(a, json_string(s))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* null for a NULL string: the JSON of an optional name. */
static json_t *name_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *proto_game_json(const ow_game *g)
{
	const ow_pos *p = &g->pos;
	uint8_t legal[OW_ROW];
	unsigned mask = g->end == OW_END_NONE ? ow_legal_mask(p) : 0;
	int nlegal = 0;
	json_t *pits = json_array();

	for (int i = 0; pits && i < OW_PITS; i++)
		if (json_array_append_new(pits, json_integer(p->pits[i]))) {
			json_decref(pits);
			pits = NULL;
		}
	for (int i = 0; i < OW_PITS; i++)
		if (mask & (1u << i))
			legal[nlegal++] = (uint8_t)i;
	/* json_pack's "o" steals each reference, also on failure. */
	return json_pack("{s:o?, s:{s:i, s:i}, s:s, s:o?, s:b, s:o, s:o}",
	                 "pits", pits,
	                 "captured", "south", p->captured[OW_SOUTH], "north", p->captured[OW_NORTH],
	                 "turn", proto_side_name(p->turn),
	                 "legal", proto_pits_json(legal, nlegal),
	                 "over", g->end != OW_END_NONE,
	                 "winner", name_or_null(proto_winner_name(g->winner)),
	                 "reason", name_or_null(proto_end_name(g->end)));
}

/* An integer in [-2^31, 2^31) or a type error. */
static int get_int(const json_t *v, int *out)
{
	json_int_t x;

	if (!json_is_integer(v))
		return -1;
	x = json_integer_value(v);
	if (x < -2147483647 - 1 || x > 2147483647)
		x = x < 0 ? -1 : OW_SEEDS + 1; /* still reported as out of range */
	*out = (int)x;
	return 0;
}

int proto_position_from_json(const json_t *j, ow_pos *out, char *err, size_t errlen)
{
	static const char *const fields[] = {"captured.south", "captured.north", "turn"};
	const json_t *pits, *cap, *turn;
	int v[OW_PITS], c[2], side, field, rc;

	if (!json_is_object(j)) {
		snprintf(err, errlen, "position: must be a JSON object");
		return -1;
	}
	pits = json_object_get(j, "pits");
	if (!json_is_array(pits) || json_array_size(pits) != OW_PITS) {
		snprintf(err, errlen, "pits: must be an array of 12 integers");
		return -1;
	}
	for (int i = 0; i < OW_PITS; i++)
		if (get_int(json_array_get(pits, (size_t)i), &v[i])) {
			snprintf(err, errlen, "pits[%d]: must be an integer", i);
			return -1;
		}
	cap = json_object_get(j, "captured");
	if (!json_is_object(cap)) {
		snprintf(err, errlen, "captured: must be an object {\"south\":N,\"north\":N}");
		return -1;
	}
	for (int s = 0; s < 2; s++)
		if (get_int(json_object_get(cap, proto_side_name(s)), &c[s])) {
			snprintf(err, errlen, "%s: must be an integer", fields[s]);
			return -1;
		}
	turn = json_object_get(j, "turn");
	side = proto_side_parse(json_string_value(turn));
	rc = ow_pos_set(out, v, c, side < 0 ? 2 : side, &field);
	if (rc == OW_OK)
		return 0;
	if (rc == OW_E_TURN)
		snprintf(err, errlen, "turn: must be \"south\" or \"north\"");
	else if (field < 0)
		snprintf(err, errlen, "position: pits and captured must add up to 48");
	else if (field < OW_PITS)
		snprintf(err, errlen, "pits[%d]: %s", field,
		         rc == OW_E_NEGATIVE ? "negative count" : "more than 48 seeds");
	else
		snprintf(err, errlen, "%s: %s", fields[field - OW_PITS],
		         rc == OW_E_NEGATIVE ? "negative count" : "more than 48 seeds");
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
	json_error_t je;
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	int rc;

	if (!j) {
		proto_printable_ascii(je.text);
		snprintf(err, errlen, "position: malformed JSON at character %d: %s", je.position, je.text);
		return -1;
	}
	rc = proto_position_from_json(j, out, err, errlen);
	json_decref(j);
	return rc;
}
