/* message.h: the `oware.v1` WebSocket messages of PROTOCOL.md: client
 * messages parsed from JSON text into checked C values, server messages
 * (welcome, state, error) written as JSON text (jw). No I/O, no event loop. */
#ifndef PROTO_MESSAGE_H
#define PROTO_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/oware.h"
#include "protocol/errors.h"
#include "protocol/jw.h"
#include "protocol/kind.h"
#include "protocol/text.h"

/* Client message types. */
typedef enum {
	PROTO_MSG_NONE = 0,
	PROTO_MSG_CREATE,
	PROTO_MSG_JOIN,
	PROTO_MSG_MOVE,
	PROTO_MSG_RESIGN,
	PROTO_MSG_DRAW,
	PROTO_MSG_ABORT,
	PROTO_MSG_REMATCH,
	PROTO_MSG_CLAIM,
	PROTO_MSG_NAME,
	PROTO_MSG_CHAT,
	/* Club events (PROTOCOL.md "Club events"): */
	PROTO_MSG_EVENT_CREATE,
	PROTO_MSG_EVENT_WATCH,
	PROTO_MSG_EVENT_JOIN,
	PROTO_MSG_EVENT_WITHDRAW,
	PROTO_MSG_EVENT_START,
	PROTO_MSG_EVENT_RESULT,
	PROTO_MSG_EVENT_NEXT,
	PROTO_MSG_EVENT_FINISH,
	PROTO_MSG_EVENT_ENTRIES,
	PROTO_MSG_PUSH                    /* Web Push (PROTOCOL.md "Push") */
} proto_msg_type;

/* 1 for the types of club events. */
#define PROTO_MSG_IS_EVENT(t) ((t) >= PROTO_MSG_EVENT_CREATE && (t) <= PROTO_MSG_EVENT_ENTRIES)

/* event_create's `format`. */
enum { PROTO_EV_ROUND_ROBIN = 1, PROTO_EV_DOUBLE_ROUND_ROBIN = 2, PROTO_EV_SWISS = 3 };
/* event_create's `rules`: "fide_2025" (the default) or "fide_2017". */
enum { PROTO_EV_RULES_2025 = 0, PROTO_EV_RULES_2017 = 1 };
#define PROTO_EV_TITLE_MAX 60                      /* code points */
#define PROTO_EV_TITLE_BYTES (PROTO_EV_TITLE_MAX * 4)
#define PROTO_EV_ROUNDS_MAX 32
#define PROTO_EV_PLAYERS_MAX 256
#define PROTO_EV_SEEDS_MAX 162

/* `action` of draw and rematch. */
typedef enum {
	PROTO_ACT_NONE = 0,
	PROTO_ACT_OFFER,
	PROTO_ACT_ACCEPT,
	PROTO_ACT_DECLINE,
	PROTO_ACT_SUBSCRIBE,              /* push */
	PROTO_ACT_CANCEL
} proto_action;

/* push's subscription: as a browser's PushSubscription.toJSON() gives it. */
#define PROTO_PUSH_URL_MAX 2048           /* the endpoint, in bytes */
#define PROTO_PUSH_KEY_MAX 96             /* p256dh and auth, base64url */

/* `side` of create besides OW_SOUTH / OW_NORTH. */
#define PROTO_SIDE_RANDOM 2

#define PROTO_ROOM_MAX 64  /* longest room id accepted (a UUID has 36) */
#define PROTO_TOKEN_MAX 64 /* longest seat token accepted (ours have 43) */
#define PROTO_KIND_MAX 15  /* longest room kind */

/* The WebSocket close code of a connection whose seat another connection
 * took with its token (PROTOCOL.md, "Closing"). */
#define PROTO_CLOSE_REPLACED 4001

/* End reasons beyond the engine's ow_end (OW_END_*), for state.game.reason.
 * The store writes these values to disk: never renumber them. */
enum {
	PROTO_END_RESIGN = 16,
	PROTO_END_AGREEMENT = 17,
	PROTO_END_ABANDONED = 18,
	PROTO_END_ABORTED = 19,
	PROTO_END_TIMEOUT = 20,      /* the side to move ran out of time (clocks) */
	PROTO_END_ORGANISER = 21     /* a club event's organiser recorded the board's
	                              * result (winner: OW_NOBODY for a double forfeit) */
};

/* Kinds of clock a room may have (create's `clock`, PROTOCOL.md "Clocks").
 * The store writes these values to disk: never renumber them. */
enum {
	PROTO_CLOCK_NONE = 0,
	PROTO_CLOCK_REALTIME = 1,       /* Fischer: initial time per side + increment */
	PROTO_CLOCK_CORRESPONDENCE = 2  /* days per move */
};

/* The bounds of create's `clock` (seconds, days), inclusive. */
#define PROTO_CLOCK_INITIAL_MIN 10
#define PROTO_CLOCK_INITIAL_MAX 10800 /* 3 h */
#define PROTO_CLOCK_INCREMENT_MAX 180
#define PROTO_CLOCK_DAYS_MIN 1
#define PROTO_CLOCK_DAYS_MAX 14

/* One client message, checked: only the fields of its type are set. */
typedef struct proto_msg {
	int type;                         /* proto_msg_type */
	int side;                         /* create: OW_SOUTH, OW_NORTH or PROTO_SIDE_RANDOM */
	char kind[PROTO_KIND_MAX + 1];    /* create: "oware" unless given; a kind
	                                   * proto_kind_find knows */
	char room[PROTO_ROOM_MAX + 1];    /* join */
	char token[PROTO_TOKEN_MAX + 1];  /* join: "" when absent */
	int pit;                          /* move: a letter's pit 0..11, or -1 */
	int hole;                         /* move: a hole number 1..9, or 0 (the
	                                   * room's kind says which form it takes) */
	int ply;                          /* move: >= 0 */
	int action;                       /* draw, rematch: proto_action */
	/* create's clock: kind PROTO_CLOCK_NONE when absent or null. */
	int clock_kind;
	int clock_initial[2];             /* realtime: seconds for each side (ow_side) */
	int clock_increment;              /* realtime: seconds added per move */
	int clock_days;                   /* correspondence: days per move */
	/* create's `position`: the games of the room start from it (PROTOCOL.md
	 * "Games from a position"); has_position 0 when absent or null. */
	int has_position;
	proto_pos position;               /* of the kind, valid, its game not over */
	/* Names and chat (PROTOCOL.md, "Names and chat"): */
	int has_name;                     /* create, join: a name was given; name: always */
	char name[PROTO_NAME_BYTES + 1];  /* trimmed; "" for a `name` of null (no name) */
	char text[PROTO_CHAT_BYTES + 1];  /* chat: the line, trimmed */
	/* Club events: `event` in each; `token` (above) where given; create's
	 * kind and clock (above) and these: */
	char event[PROTO_ROOM_MAX + 1];
	char title[PROTO_EV_TITLE_BYTES + 1]; /* event_create: trimmed */
	int format;                       /* event_create: PROTO_EV_* */
	int rounds;                       /* event_create: a Swiss's rounds, else 0 */
	int max_players;                  /* event_create: 0 for no limit */
	int auto_next;                    /* event_create: 1 unless `auto` is false */
	int rules;                        /* event_create: PROTO_EV_RULES_* */
	int round, board;                 /* event_result: from 1 */
	char result;                      /* event_result: '1' '=' '0' '+' '-' '*' (white's view) */
	int seeds[2];                     /* event_result: white's, black's (0 when absent) */
	int entry;                        /* event_withdraw: the entry, -1 when absent */
	int entries_open;                 /* event_entries: 1 open, 0 close, -1 absent */
	int per_address;                  /* event_entries: 1 to 256, 0 when absent */
	/* push: action PROTO_ACT_SUBSCRIBE (all three set) or PROTO_ACT_CANCEL
	 * (endpoint, or "" for every subscription of the seat). */
	char endpoint[PROTO_PUSH_URL_MAX + 1];
	char p256dh[PROTO_PUSH_KEY_MAX + 1];
	char auth[PROTO_PUSH_KEY_MAX + 1];
} proto_msg;

/* The wire name of an end reason: an OW_END_* or PROTO_END_* value; NULL for
 * OW_END_NONE or an unknown value. */
const char *proto_reason_name(int reason);

/* Parses one client message of len bytes (need not be NUL-terminated).
 * Returns 0 and fills *out, or PROTO_E_BAD_JSON, PROTO_E_BAD_MESSAGE or
 * PROTO_E_UNKNOWN_TYPE with a one-line reason in err (naming the field);
 * *out is then unspecified. */
int proto_msg_parse(const char *text, size_t len, proto_msg *out,
                    char *err, size_t errlen);

/* A seat as the state shows it. */
typedef struct proto_seat_view {
	int taken;     /* a player holds the seat */
	int connected; /* that player has a connection now */
	int claimable; /* the seat's player is gone long enough to be claimed against */
} proto_seat_view;

/* A room's clock as the state shows it (PROTOCOL.md "Clocks"). */
typedef struct proto_clock_view {
	int kind;            /* PROTO_CLOCK_*; PROTO_CLOCK_NONE: no clock (null) */
	int64_t left[2];     /* ms each side has at the moment of the state */
	int running;         /* the side whose clock runs (or will after grace), or -1 */
	int64_t grace;       /* ms before the running clock starts again (after a restart) */
	int64_t increment;   /* ms */
	int64_t initial[2];  /* ms each side starts a game with */
	int days;            /* correspondence: days per move; else 0 */
} proto_clock_view;

/* Writes a clock as `state.clock` has it (null without one). */
void proto_clock_write(jw *w, const proto_clock_view *c);

/* Everything a `state` message carries; the caller owns all pointers. */
typedef struct proto_state_view {
	const char *room;
	const char *kind;
	uint64_t version;
	unsigned game_number;
	const proto_kind *k; /* the room's kind */
	const proto_play *play; /* its game, and what the last move did */
	int has_last;        /* 0 before the first move ("last": null) */
	int reason;          /* 0: the engine's; else a PROTO_END_* that ended the game */
	int winner;          /* with reason != 0: OW_WINNER_SOUTH/NORTH, OW_DRAW or OW_NOBODY */
	const uint8_t *moves; /* pits played, nmoves of them */
	int nmoves;
	proto_seat_view seats[2]; /* indexed by ow_side */
	unsigned spectators;
	int draw_offer;      /* side with a pending offer, or -1 */
	int rematch_offer;   /* side with a pending offer, or -1 */
	int aborted_by;      /* the side that aborted the game, or -1 (not aborted, or not known) */
	unsigned abandon_seconds;
	long claim_in;       /* seconds, or -1 for null */
	proto_clock_view clock; /* kind PROTO_CLOCK_NONE: "clock": null */
	const proto_pos *start; /* the position the room's games start from; NULL: the
	                      * standard start ("start": null) */
	/* Names (PROTOCOL.md, "Names and chat"): */
	const char *names[2];          /* each seat's name, or NULL (indexed by ow_side) */
	const char *const *spectator_names; /* names spectators gave, nspectator_names */
	unsigned nspectator_names;
	const char *event;             /* the club event of a board's room, or NULL */
} proto_state_view;

/* Each writes one server message into w (see jw.h for a failure). */
/* A `state` for v. */
void proto_state_write(jw *w, const proto_state_view *v);

/* A `welcome`; token NULL leaves it out; seat is OW_SOUTH, OW_NORTH or -1
 * (spectator); push_key (the server's Web Push public key, base64url)
 * NULL leaves it out. */
void proto_welcome_write(jw *w, const char *room, const char *kind, int seat,
                         const char *token, const char *push_key);

/* A `push` answer: the seat's subscription was kept (action
 * PROTO_ACT_SUBSCRIBE) or cancelled (PROTO_ACT_CANCEL). */
void proto_push_write(jw *w, int action);

/* One chat line as `chat` and `chat_history` carry it; the caller owns
 * the strings. */
typedef struct proto_chat {
	uint64_t id;          /* the room's count of lines, from 1 */
	int64_t at;           /* ms since the epoch */
	int side;             /* the sender's seat then: OW_SOUTH or OW_NORTH */
	const char *name;     /* the sender's name then, or NULL */
	const char *text;
} proto_chat;

/* A `chat` message. */
void proto_chat_write(jw *w, const proto_chat *c);
/* A `chat_history` of n lines, oldest first. */
void proto_chat_history_write(jw *w, const proto_chat *c, int n);

/* One entry of the body of POST /api/rooms (PROTOCOL.md, "Your games"). */
typedef struct proto_room_ref {
	char room[PROTO_ROOM_MAX + 1];
	char token[PROTO_TOKEN_MAX + 1]; /* "" when absent or null */
} proto_room_ref;

/* Parses the body of POST /api/rooms, {"rooms":[{"room":..,"token":..},..]}
 * (len bytes, need not be NUL-terminated), into out (max entries). Returns
 * the number of entries (0 to max), or -1 with a one-line reason in err. */
int proto_rooms_query_parse(const char *text, size_t len, proto_room_ref *out, int max,
                            char *err, size_t errlen);

/* Parses the body of POST /api/push (PROTOCOL.md, "Push from your
 * games"): {"room", "token"} and the fields of a `push` message (action,
 * subscription or endpoint) into ref and m (m->type PROTO_MSG_PUSH).
 * Returns 0, or -1 with a one-line reason in err. */
int proto_push_req_parse(const char *text, size_t len, proto_room_ref *ref, proto_msg *m,
                         char *err, size_t errlen);

/* An `error` {type, code, message}. */
void proto_error_write(jw *w, int code, const char *message);

#endif
