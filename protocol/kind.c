/* kind.c: Oware and Togyz Kumalak behind proto_kind (kind.h): a kind is
 * one record here; what its functions share is written once above the
 * records (and in protocol/game.c's proto_board_*). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "engine/ogn.h"
#include "protocol/game.h"
#include "protocol/kind.h"
#include "protocol/togyz.h"

/* A position read for create's `position` (in *p) goes to out only when
 * kind's game from it is not over before its first move. */
static int not_over(const proto_kind *kind, const proto_pos *p, proto_pos *out, char *err,
                    size_t errlen)
{
	proto_play g;

	kind->begin(&g, p);
	if (kind->end(&g) != OW_END_NONE) {
		snprintf(err, errlen, "position: the game would be over from the start");
		return -1;
	}
	*out = *p;
	return 0;
}

_Static_assert(OW_PITS <= PROTO_MAX_PITS && TG_PITS <= PROTO_MAX_PITS, "PROTO_MAX_PITS");

/* ---- Oware ---- */

static void oware_begin(proto_play *p, const proto_pos *start)
{
	if (start)
		ow_game_from(&p->ow.game, &start->ow);
	else
		ow_game_start(&p->ow.game);
}

static int oware_play(proto_play *p, int pit)
{
	return ow_game_play(&p->ow.game, pit, &p->ow.last);
}

static int oware_turn(const proto_play *p) { return p->ow.game.pos.turn; }
static int oware_end(const proto_play *p) { return p->ow.game.end; }
static int oware_winner(const proto_play *p) { return p->ow.game.winner; }
static int oware_pit_side(int pit) { return pit / OW_ROW; }
static int oware_ply(const proto_play *p) { return p->ow.game.ply; }
static void oware_at(const proto_play *p, proto_pos *out) { out->ow = p->ow.game.pos; }

static unsigned oware_legal(const proto_play *p)
{
	return p->ow.game.end != OW_END_NONE ? 0 : ow_legal_mask(&p->ow.game.pos);
}

static void oware_move_name(int pit, char out[4])
{
	out[0] = ow_pit_letter(pit);
	out[1] = 0;
}

static int oware_move_pit(int letter_pit, int hole, int seat, char *why, size_t whylen)
{
	(void)hole;
	(void)seat;
	if (letter_pit < 0) {
		snprintf(why, whylen, "pit: an Oware move is a pit letter a-f or A-F");
		return -1;
	}
	return letter_pit;
}

static void oware_game_json(jw *w, const proto_play *p, const char *reason, int winner)
{
	proto_game_write_end(w, &p->ow.game, reason, winner);
}

/* The last move's effects (PROTOCOL.md `state.last`). */
static void oware_last_json(jw *w, const proto_play *p)
{
	const ow_move_info *m = &p->ow.last;

	jw_obj(w);
	jw_key(w, "pit");
	jw_char(w, ow_pit_letter(m->pit));
	jw_key(w, "sown");
	proto_pits_write(w, m->sown, m->nsown);
	jw_key(w, "captured");
	proto_pits_write(w, m->captured, m->ncaptured);
	jw_key(w, "seeds");
	jw_int(w, m->seeds);
	jw_key(w, "grand_slam");
	jw_bool(w, m->grand_slam);
	jw_obj_end(w);
}

static void oware_position_json_write(jw *w, const proto_pos *p)
{
	proto_position_write(w, &p->ow);
}

static int oware_position_read(const json_t *j, proto_pos *out, char *err, size_t errlen)
{
	proto_pos p;

	if (proto_position_json(j, &p.ow, err, errlen) < 0)
		return -1;
	return not_over(&proto_kind_oware, &p, out, err, errlen);
}

static int oware_position_parse(const char *text, size_t len, proto_pos *out, char *err,
                                size_t errlen)
{
	return proto_position_parse(text, len, &out->ow, err, errlen);
}

static int oware_position_value(const json_t *j, proto_pos *out, char *err, size_t errlen)
{
	return proto_position_json(j, &out->ow, err, errlen);
}

static uint64_t oware_perft(const proto_play *p, int depth)
{
	return ow_perft(&p->ow.game, depth);
}

/* Aualé's FEN (engine/ogn.h), as the store has always kept it. */
static void oware_start_text(const proto_pos *p, char out[PROTO_START_TEXT])
{
	_Static_assert(OW_FEN_SIZE <= PROTO_START_TEXT, "an Oware FEN fits");
	ow_fen_write(out, &p->ow);
}

static int oware_start_read(const char *text, proto_pos *out)
{
	return ow_fen_read(text, strlen(text), &out->ow) == 0 ? 0 : -1;
}

const proto_kind proto_kind_oware = {
	.name = "oware",
	.begin = oware_begin,
	.play = oware_play,
	.turn = oware_turn,
	.end = oware_end,
	.winner = oware_winner,
	.pit_side = oware_pit_side,
	.npits = OW_PITS,
	.legal = oware_legal,
	.ply = oware_ply,
	.at = oware_at,
	.perft = oware_perft,
	.strerror = ow_strerror,
	.move_name = oware_move_name,
	.move_pit = oware_move_pit,
	.game_write = oware_game_json,
	.last_write = oware_last_json,
	.moves_write = proto_pits_write,
	.position_write = oware_position_json_write,
	.position_json = oware_position_read,
	.position_parse = oware_position_parse,
	.position_value = oware_position_value,
	.start_text = oware_start_text,
	.start_read = oware_start_read,
};

/* ---- Togyz Kumalak ---- */

static void togyz_begin(proto_play *p, const proto_pos *start)
{
	if (start)
		tg_game_from(&p->tg.game, &start->tg);
	else
		tg_game_start(&p->tg.game);
}

static int togyz_play(proto_play *p, int pit)
{
	return tg_game_play(&p->tg.game, pit, &p->tg.last);
}

static int togyz_turn(const proto_play *p) { return p->tg.game.pos.turn; }
static int togyz_end(const proto_play *p) { return p->tg.game.end; }
static int togyz_winner(const proto_play *p) { return p->tg.game.winner; }
static int togyz_pit_side(int pit) { return pit / TG_ROW; }
static int togyz_ply(const proto_play *p) { return p->tg.game.ply; }
static void togyz_at(const proto_play *p, proto_pos *out) { out->tg = p->tg.game.pos; }

static unsigned togyz_legal(const proto_play *p)
{
	return p->tg.game.end != OW_END_NONE ? 0 : tg_legal_mask(&p->tg.game.pos);
}

static void togyz_move_name(int pit, char out[4])
{
	out[0] = (char)('0' + tg_hole_number(pit));
	out[1] = 0;
}

static int togyz_move_pit(int letter_pit, int hole, int seat, char *why, size_t whylen)
{
	(void)letter_pit;
	if (hole < 1 || hole > TG_ROW) {
		snprintf(why, whylen, "pit: a Togyz Kumalak move is a hole number \"1\" to \"9\"");
		return -1;
	}
	return tg_pit_of(seat, hole);
}

static void togyz_game_json(jw *w, const proto_play *p, const char *reason, int winner)
{
	proto_togyz_game_write_end(w, &p->tg.game, reason, winner);
}

static void togyz_last_json(jw *w, const proto_play *p)
{
	proto_togyz_last_write(w, &p->tg.last);
}

static void togyz_position_json_write(jw *w, const proto_pos *p)
{
	proto_togyz_position_write(w, &p->tg);
}

static int togyz_position_read(const json_t *j, proto_pos *out, char *err, size_t errlen)
{
	proto_pos p;

	if (proto_togyz_position_json(j, &p.tg, err, errlen) < 0)
		return -1;
	return not_over(&proto_kind_togyz, &p, out, err, errlen);
}

static int togyz_position_parse(const char *text, size_t len, proto_pos *out, char *err,
                                size_t errlen)
{
	return proto_togyz_position_parse(text, len, &out->tg, err, errlen);
}

static int togyz_position_value(const json_t *j, proto_pos *out, char *err, size_t errlen)
{
	return proto_togyz_position_json(j, &out->tg, err, errlen);
}

static uint64_t togyz_perft(const proto_play *p, int depth)
{
	return tg_perft(&p->tg.game, depth);
}

/* The position's JSON (the shape `create` takes): at most about 170
 * bytes, as 162 seeds allow few long numbers. */
static void togyz_start_text(const proto_pos *p, char out[PROTO_START_TEXT])
{
	jw w;

	jw_init(&w);
	proto_togyz_position_write(&w, &p->tg);
	if (!w.oom && w.len < PROTO_START_TEXT) {
		memcpy(out, w.buf, w.len);
		out[w.len] = 0;
	} else {
		out[0] = 0;
	}
	jw_free(&w);
}

static int togyz_start_read(const char *text, proto_pos *out)
{
	char err[128];
	tg_pos p;

	if (proto_togyz_position_parse(text, strlen(text), &p, err, sizeof err) < 0)
		return -1;
	out->tg = p;
	return 0;
}

const proto_kind proto_kind_togyz = {
	.name = "togyz",
	.begin = togyz_begin,
	.play = togyz_play,
	.turn = togyz_turn,
	.end = togyz_end,
	.winner = togyz_winner,
	.pit_side = togyz_pit_side,
	.npits = TG_PITS,
	.legal = togyz_legal,
	.ply = togyz_ply,
	.at = togyz_at,
	.perft = togyz_perft,
	.strerror = tg_strerror,
	.move_name = togyz_move_name,
	.move_pit = togyz_move_pit,
	.game_write = togyz_game_json,
	.last_write = togyz_last_json,
	.moves_write = proto_togyz_moves_write,
	.position_write = togyz_position_json_write,
	.position_json = togyz_position_read,
	.position_parse = togyz_position_parse,
	.position_value = togyz_position_value,
	.start_text = togyz_start_text,
	.start_read = togyz_start_read,
};

const proto_kind *proto_kind_find(const char *name)
{
	if (!strcmp(name, "oware"))
		return &proto_kind_oware;
	if (!strcmp(name, "togyz"))
		return &proto_kind_togyz;
	return NULL;
}
