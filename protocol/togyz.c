/* togyz.c: Togyz Kumalak games, positions and moves as JSON (togyz.h). */
#include <stdio.h>

#include <jansson.h>

#include "protocol/game.h"
#include "protocol/togyz.h"

/* The keys of a position, without the closing brace (game and position share them). */
static void position_keys(jw *w, const tg_pos *p)
{
	proto_board_keys(w, p->pits, TG_PITS, p->captured);
	jw_key(w, "tuzdyk");
	jw_obj(w);
	for (int s = 0; s < 2; s++) {
		jw_key(w, proto_side_name(s));
		if (p->tuzdyk[s] == TG_NONE)
			jw_null(w);
		else
			jw_int(w, tg_hole_number(p->tuzdyk[s]));
	}
	jw_obj_end(w);
	jw_key(w, "turn");
	jw_str(w, proto_side_name(p->turn));
}

static void hole_write(jw *w, int pit)
{
	jw_int(w, tg_hole_number(pit));
}

void proto_togyz_game_write_end(jw *w, const tg_game *g, const char *reason, int winner)
{
	const tg_pos *p = &g->pos;
	uint32_t mask = !reason && g->end == OW_END_NONE ? tg_legal_mask(p) : 0;

	jw_obj(w);
	position_keys(w, p);
	proto_board_end(w, mask, TG_PITS, hole_write, g->end, g->winner, reason, winner);
}

void proto_togyz_game_write(jw *w, const tg_game *g)
{
	proto_togyz_game_write_end(w, g, NULL, OW_NOBODY);
}

void proto_togyz_position_write(jw *w, const tg_pos *p)
{
	jw_obj(w);
	position_keys(w, p);
	jw_obj_end(w);
}

void proto_togyz_moves_write(jw *w, const uint8_t *pits, int n)
{
	jw_arr(w);
	for (int i = 0; i < n; i++)
		jw_char(w, (char)('0' + tg_hole_number(pits[i])));
	jw_arr_end(w);
}

/* Pits 0..17 as an array of indices into game.pits. */
static void indices_write(jw *w, const uint8_t *pits, int n)
{
	jw_arr(w);
	for (int i = 0; i < n; i++)
		jw_int(w, pits[i]);
	jw_arr_end(w);
}

void proto_togyz_last_write(jw *w, const tg_move_info *m)
{
	char note[4];

	if (!m) {
		jw_null(w);
		return;
	}
	tg_notation(m, note);
	jw_obj(w);
	jw_key(w, "pit");
	jw_char(w, (char)('0' + tg_hole_number(m->pit)));
	jw_key(w, "sown");
	indices_write(w, m->sown, m->nsown);
	jw_key(w, "captured");
	indices_write(w, &m->captured, m->captured == TG_NONE ? 0 : 1);
	jw_key(w, "seeds");
	jw_int(w, m->captured == TG_NONE ? 0 : m->seeds);
	jw_key(w, "tuzdyk");
	jw_bool(w, m->tuzdyk);
	jw_key(w, "to_tuzdyk");
	jw_obj(w);
	jw_key(w, "south");
	jw_int(w, m->to_tuzdyk[OW_SOUTH]);
	jw_key(w, "north");
	jw_int(w, m->to_tuzdyk[OW_NORTH]);
	jw_obj_end(w);
	jw_key(w, "notation");
	jw_str(w, note);
	jw_obj_end(w);
}

int proto_togyz_position_json(const struct json_t *j, tg_pos *out, char *err, size_t errlen)
{
	static const char *const fields[] = {"captured.south", "captured.north",
	                                     "tuzdyk.south", "tuzdyk.north", "turn"};
	const json_t *tz, *turn;
	int v[TG_PITS], c[2], t[2], side, field, rc;

	if (proto_board_json(j, TG_PITS, TG_SEEDS, v, c, err, errlen))
		return -1;
	tz = json_object_get(j, "tuzdyk");
	if (!json_is_object(tz)) {
		snprintf(err, errlen, "tuzdyk: must be an object {\"south\":HOLE|null,\"north\":HOLE|null}");
		return -1;
	}
	for (int s = 0; s < 2; s++) {
		const json_t *h = json_object_get(tz, proto_side_name(s));

		if (json_is_null(h)) {
			t[s] = 0;
		} else if (!json_is_integer(h)) {
			snprintf(err, errlen, "%s: must be a hole number or null", fields[2 + s]);
			return -1;
		} else {
			json_int_t x = json_integer_value(h);

			/* 0 is the engine's "none": refused here, as is any
			 * number beyond a hole's */
			t[s] = x < 1 ? -1 : x > 2147483647 ? TG_SEEDS + 1 : (int)x;
		}
	}
	turn = json_object_get(j, "turn");
	side = proto_side_parse(json_string_value(turn));
	rc = tg_pos_set(out, v, c, t, side < 0 ? 2 : side, &field);
	switch (rc) {
	case TG_OK:
		return 0;
	case TG_E_TURN:
		snprintf(err, errlen, "turn: must be \"south\" or \"north\"");
		break;
	case TG_E_TUZDYK_HOLE:
		snprintf(err, errlen, "%s: must be a hole number from 1 to 8 or null (the 9th hole cannot be a tuzdyk)",
		         fields[field - TG_PITS]);
		break;
	case TG_E_TUZDYK_TWIN:
		snprintf(err, errlen, "%s: cannot have the same hole number as south's tuzdyk",
		         fields[field - TG_PITS]);
		break;
	case TG_E_TUZDYK_SEEDS:
		snprintf(err, errlen, "%s: %s's hole %d must be empty (seeds sown into a tuzdyk go to its owner)",
		         fields[field - TG_PITS], proto_side_name(1 - (field - TG_PITS - 2)),
		         t[field - TG_PITS - 2]);
		break;
	default:
		proto_board_count_err(err, errlen, field, TG_PITS, fields, rc == TG_E_NEGATIVE, TG_SEEDS);
	}
	return -1;
}

int proto_togyz_position_parse(const char *text, size_t len, tg_pos *out, char *err, size_t errlen)
{
	json_t *j = proto_board_load(text, len, err, errlen);
	int rc;

	if (!j)
		return -1;
	rc = proto_togyz_position_json(j, out, err, errlen);
	json_decref(j);
	return rc;
}
