/* rules.h: the rules of one room: every action of PROTOCOL.md decided from
 * the room, the acting seat, a checked message and the time. It knows no
 * connection, store, clock or source of randomness: its caller (rooms.c)
 * passes the time and fresh tokens in, saves the record the outcome asks
 * for, and only then applies the outcome and sends what it says. */
#ifndef SRV_RULES_H
#define SRV_RULES_H

#include <stdint.h>

#include "engine/oware.h"
#include "protocol/kind.h"
#include "protocol/message.h"
#include "server/base/sha256.h"

#define ROOM_ID_LEN 36           /* a UUID in text */
#define RULES_SPECTATOR (-1)     /* the seat of a spectator */

/* The persistent part of a room: what a store keeps. Its numbers are
 * written to disk as they are: reason is an OW_END_* or PROTO_END_* value,
 * winner an ow_winner, the offers an ow_side or -1; those enums carry
 * explicit values that are never renumbered. */
typedef struct room_rec {
	char id[ROOM_ID_LEN + 1];
	char kind[PROTO_KIND_MAX + 1]; /* the game: a name proto_kind_find knows */
	int64_t created, updated;    /* wall-clock seconds */
	unsigned game_number;
	uint64_t version;
	int has_tok[2];              /* a seat is taken (indexed by ow_side) */
	uint8_t tok[2][SHA256_LEN];  /* SHA-256 of each seat's token */
	int reason;                  /* what ended the game outside the engine, or 0 */
	int winner;                  /* with reason: an ow_winner; with PROTO_END_ABORTED
	                              * the side that aborted (state's aborted_by; the
	                              * game has no winner), or OW_NOBODY if not known */
	int draw_offer, rematch_offer; /* the side whose offer is pending, or -1 */
	/* The room's clock (PROTOCOL.md "Clocks"), kept across rematches. */
	int clock_kind;              /* PROTO_CLOCK_*; PROTO_CLOCK_NONE: no clock */
	int clock_days;              /* correspondence: days per move, else 0 */
	int64_t clock_initial[2];    /* ms each side starts with (follows the player
	                              * across a rematch); correspondence: per move */
	int64_t clock_increment;     /* ms a move adds to its mover (realtime) */
	int64_t clock_left[2];       /* ms each side had when the side to move began
	                              * its turn (at the last move): what a restart
	                              * resumes from; final values once it is over */
	char name[2][PROTO_NAME_BYTES + 1]; /* each seat's player's name, "" for none */
	/* The position every game of the room starts from (create's
	 * `position`), kept across rematches; has_start 0: the standard start. */
	int has_start;
	proto_pos start;             /* of the room's kind */
	/* A board of a club event (server/events/events.c): the event's id, "" for
	 * a room of two friends. Its game has no rematch. */
	char event[ROOM_ID_LEN + 1];
} room_rec;

/* A room as the rules see it. Owned by its caller; moves is the caller's
 * allocation (rules_reserve grows it, rules_room_free releases it). */
typedef struct rules_room {
	room_rec rec;
	const proto_kind *k;         /* the kind of rec.kind: the game's rules */
	proto_play play;             /* the game (play.ow or play.tg by k), and what
	                              * its last move did, when has_last */
	uint8_t *moves;              /* the current game's pits, nmoves of them */
	int nmoves, capmoves;
	int has_last;
	int present[2];              /* a connection holds each seat now */
	unsigned spectators;         /* spectators connected */
	int absent_side;             /* on turn and disconnected, or -1 */
	int64_t absent_since;        /* ms, when absent_side >= 0 */
	int claim_shown;             /* the absent seat was announced claimable */
	int64_t clock_since;         /* ms: the running side's clock runs from then
	                              * (the last move; later during a restart's grace) */
} rules_room;

/* The server's settings the rules follow. */
typedef struct rules_limits {
	int64_t abandon_ms;          /* absence on turn before a claim */
	unsigned max_spectators;     /* per room */
	int64_t day_ms;              /* a correspondence day: 86400000 (0 means that);
	                              * shorter only in a test build (OW_TEST_TIME_SCALE) */
} rules_limits;

/* Lag: a move is credited the mover's measured round trip, at most this
 * much, and the server waits this long past a clock's zero before it
 * ends the game on time (PROTOCOL.md "Clocks"). */
#define RULES_LAG_CREDIT_MAX_MS 500
/* After a restart the side to move has this long (or until it is back)
 * before its clock runs again. */
#define RULES_RESTORE_GRACE_MS 15000

/* What an action is decided with. */
typedef struct rules_in {
	const rules_limits *lim;
	int64_t now;                 /* monotonic ms */
	int64_t wall;                /* wall-clock seconds, for rec.updated */
	int seat;                    /* the actor: OW_SOUTH, OW_NORTH or RULES_SPECTATOR */
	const proto_msg *msg;        /* the action (rules_act, rules_join, rules_create) */
	const uint8_t *fresh_tok;    /* hash of a new token a join or create may hand out */
	int coin;                    /* 0 or 1: the side of a create with side "random" */
	int64_t lag;                 /* the actor's round trip as the server measured it
	                              * (ms; 0 when unknown): the credit of a move */
} rules_in;

/* What the store must do before the outcome is applied. */
enum { RULES_KEEP = 0, RULES_SAVE, RULES_SAVE_MOVES };

/* The outcome of an action: an error for the actor (nothing else
 * happens, but resync may follow), or changes to save, then apply, then
 * announce. */
typedef struct rules_out {
	int error;                   /* a PROTO_E_* code for the actor, or 0 */
	char why[96];                /* the error's message */
	int resync;                  /* the actor gets the current state */
	int save;                    /* RULES_KEEP, RULES_SAVE (rec) or RULES_SAVE_MOVES
	                              * (rec and the game's moves after apply: one pit
	                              * more, or none after a rematch) */
	room_rec rec;                /* the record to save and keep */
	int presence;                /* only presence and the version change: shown
	                              * even when the store cannot save it */
	int pit;                     /* a move appended, or -1 */
	int new_game;                /* a rematch: the moves clear and the seats swap */
	int seat;                    /* join, create: the actor's seat now */
	int joins;                   /* join, create: the actor enters the room */
	int replace;                 /* join: the seat's previous connection is displaced */
	int welcome;                 /* the actor gets a welcome */
	int token;                   /* that welcome hands out the fresh token */
	int broadcast;               /* everyone in the room gets the new state */
	int ended;                   /* the game ended */
	int claimable;               /* the absent seat became claimable */
	int leaves;                  /* the actor leaves the room */
	int chat;                    /* a chat line from the actor's seat may go out */
	/* Last, so that an outcome without a move need not clear it: */
	proto_play play;             /* with pit: the game after it and what it did */
} rules_out;

/* A new room in *r from a `create` (in->msg, in->fresh_tok for the
 * creator's seat, in->coin for side "random") with the given id; r's
 * memory is the caller's (zeroed or not). Fills *out (save: the record to
 * insert, seat, welcome with token, resync). 0, or -1 out of memory. */
int rules_create(rules_room *r, const char *id, const rules_in *in, rules_out *out);

/* rules_restore's errors. */
#define RULES_E_NOMEM (-1) /* out of memory */
#define RULES_E_KIND (-2)  /* the record's kind is not one this server hosts */

/* A room restored from its record and the moves of its current game (n
 * pits): the moves are replayed through the engine, stopping at the first
 * the engine refuses, and the version grows by one (everyone is
 * disconnected now). 0, and *bad_ply (when bad_ply is not NULL) the ply of
 * the refused move, or -1 when all were played; or RULES_E_NOMEM or
 * RULES_E_KIND (r then holds nothing to free, *bad_ply untouched). */
int rules_restore(rules_room *r, const room_rec *rec, const uint8_t *pits, int n, int64_t now,
                  int *bad_ply);

/* The seat whose token hashes like token, or -1 (the time taken does not
 * depend on which seat, if any, matches). */
int rules_token_seat(const rules_room *r, const char *token);

/* Releases r's moves. */
void rules_room_free(rules_room *r);

/* Decides a `join` by someone outside the room (in->msg->token may be
 * empty). A spectator's join (and leave) changes no version and saves
 * nothing: only the count of spectators, which the caller announces. */
void rules_join(const rules_room *r, const rules_in *in, rules_out *out);
/* Decides a game action (move, resign, draw, abort, rematch, claim) by
 * in->seat. */
void rules_act(const rules_room *r, const rules_in *in, rules_out *out);
/* A club event's organiser recorded the result of r's board while its
 * game was on: the game ends (reason PROTO_END_ORGANISER, winner an
 * ow_winner, OW_NOBODY for a double forfeit), a running clock stopping
 * where it is. game_over when it is over already. */
void rules_end_by_organiser(const rules_room *r, const rules_in *in, int winner, rules_out *out);
/* The connection on in->seat (or a spectator's) went away. */
void rules_leave(const rules_room *r, const rules_in *in, rules_out *out);
/* The time passed: an absent seat may have become claimable, or the
 * running clock ran out (the game ends: `timeout`). */
void rules_tick(const rules_room *r, const rules_in *in, rules_out *out);

/* Room for one more move in r->moves: 0, or -1 out of memory. */
int rules_reserve(rules_room *r);
/* Applies an outcome whose save succeeded (or that needs none, or with
 * presence). A move needs rules_reserve() first. */
void rules_apply(rules_room *r, const rules_out *out, int64_t now);

/* When rules_tick must run next (ms), or -1 for never. */
int64_t rules_deadline(const rules_room *r, const rules_limits *lim);
/* 1 when the game is over. */
int rules_over(const rules_room *r);
/* The side to move in r's game (an ow_side). */
int rules_turn(const rules_room *r);
/* The end reason and winner of r's game (an OW_END_* or PROTO_END_*, and
 * an ow_winner: OW_NOBODY for an aborted game), for logs. */
int rules_end_reason(const rules_room *r, int *winner);
/* 1 when r's clock runs (or will after a restart's grace): a clock, both
 * first moves made, the game on. The side is rules_turn(r). */
int rules_clock_running(const rules_room *r);
/* r's state as PROTOCOL.md's `state` shows it at now. */
void rules_view(const rules_room *r, const rules_limits *lim, int64_t now, proto_state_view *v);

#endif
