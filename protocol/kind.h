/* kind.h: the kinds of game a room can hold (PROTOCOL.md: create's `kind`),
 * behind one small interface: the room rules (server/rules/rules.c), the state
 * writer (message.c) and the store dispatch on a room's kind through it and
 * know no game's rules. Each kind is its engine (engine/oware.h,
 * engine/togyz.h) plus its JSON. Moves are kept as the engine's pit
 * indices (Oware 0..11, Togyz 0..17), one byte each. The `oware` tool
 * (cli/kind.c) builds its own per-kind record on this one: a new kind or
 * variant is a record here and one there. */
#ifndef PROTO_KIND_H
#define PROTO_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "engine/oware.h"
#include "engine/togyz.h"
#include "protocol/jw.h"

/* A position of either game (which one: the room's kind). */
typedef union proto_pos {
	ow_pos ow;
	tg_pos tg;
} proto_pos;

/* A game of either kind and what its last move did. The Oware members
 * come first and are the largest: a Togyz game fits in their space, so a
 * room is no bigger for having two kinds. */
typedef union proto_play {
	struct {
		ow_game game;
		ow_move_info last;
	} ow;
	struct {
		tg_game game;
		tg_move_info last;
	} tg;
} proto_play;

/* The most pits of any kind (Togyz Kumalak's 18): room for a value per pit. */
#define PROTO_MAX_PITS 18

/* The longest text start_text writes, NUL included. */
#define PROTO_START_TEXT 192

struct json_t;

typedef struct proto_kind {
	const char *name;             /* create's `kind`: "oware", "togyz" */
	/* The engine: */
	/* Starts p's game from start, or the standard start for NULL. */
	void (*begin)(proto_play *p, const proto_pos *start);
	/* Plays pit (an index) for the side to move, filling p's last: 0, or
	 * the engine's negative error with p's game unchanged. */
	int (*play)(proto_play *p, int pit);
	int (*turn)(const proto_play *p);   /* ow_side to move */
	int (*end)(const proto_play *p);    /* ow_end: OW_END_NONE while on */
	int (*winner)(const proto_play *p); /* ow_winner */
	int (*pit_side)(int pit);           /* the side whose row holds pit */
	int npits;                          /* pits 0..npits-1 */
	unsigned (*legal)(const proto_play *p); /* legal pits as a mask; 0 once over */
	int (*ply)(const proto_play *p);    /* moves played since its start */
	/* The position p's game stands at, into *out. */
	void (*at)(const proto_play *p, proto_pos *out);
	/* The number of legal move sequences of exactly depth plies. */
	uint64_t (*perft)(const proto_play *p, int depth);
	const char *(*strerror)(int err);   /* the engine's English text */
	/* The move's name in the protocol ("c", "C"; "7"), NUL-terminated. */
	void (*move_name)(int pit, char out[4]);
	/* The pit a move message's `pit` names for seat (the mover): >= 0, or
	 * -1 with the reason in why when its form is not this kind's (a
	 * letter in a Togyz room, a hole number in an Oware room). */
	int (*move_pit)(int letter_pit, int hole, int seat, char *why, size_t whylen);
	/* JSON: state.game (reason NULL: the engine's end), state.last,
	 * state.moves, state.start. */
	void (*game_write)(jw *w, const proto_play *p, const char *reason, int winner);
	void (*last_write)(jw *w, const proto_play *p);
	void (*moves_write)(jw *w, const uint8_t *pits, int n);
	void (*position_write)(jw *w, const proto_pos *start);
	/* create's `position` from a parsed JSON value: 0 (valid, its game not
	 * over), or -1 with the reason in err naming the field; out untouched. */
	int (*position_json)(const struct json_t *j, proto_pos *out, char *err, size_t errlen);
	/* A position from JSON text of len bytes (`oware play --position`),
	 * or from a parsed value (a puzzle's), over or not: 0, or -1 with the
	 * reason in err; out untouched. */
	int (*position_parse)(const char *text, size_t len, proto_pos *out, char *err, size_t errlen);
	int (*position_value)(const struct json_t *j, proto_pos *out, char *err, size_t errlen);
	/* The store's text of a start position (at most PROTO_START_TEXT
	 * bytes with the NUL), and back: 0, or -1 for text it did not write. */
	void (*start_text)(const proto_pos *p, char out[PROTO_START_TEXT]);
	int (*start_read)(const char *text, proto_pos *out);
} proto_kind;

extern const proto_kind proto_kind_oware, proto_kind_togyz;

/* The kind called name, or NULL for a kind this server does not host. */
const proto_kind *proto_kind_find(const char *name);

#endif
