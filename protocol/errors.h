/* errors.h: the error codes of PROTOCOL.md and their wire names. Needs no
 * JSON library, so that a client (bench/owload.c) can share the list. */
#ifndef PROTO_ERRORS_H
#define PROTO_ERRORS_H

/* Error codes of PROTOCOL.md, in its table order. */
typedef enum {
	PROTO_E_NONE = 0,
	PROTO_E_BAD_JSON,
	PROTO_E_BAD_MESSAGE,
	PROTO_E_UNKNOWN_TYPE,
	PROTO_E_NOT_JOINED,
	PROTO_E_ALREADY_JOINED,
	PROTO_E_NO_ROOM,
	PROTO_E_BAD_TOKEN,
	PROTO_E_NOT_A_PLAYER,
	PROTO_E_NOT_YOUR_TURN,
	PROTO_E_ILLEGAL_MOVE,
	PROTO_E_STALE_PLY,
	PROTO_E_GAME_OVER,
	PROTO_E_GAME_NOT_OVER,
	PROTO_E_NO_OFFER,
	PROTO_E_OFFER_PENDING,
	PROTO_E_CANNOT_ABORT,
	PROTO_E_CANNOT_CLAIM,
	PROTO_E_OPPONENT_MISSING,
	PROTO_E_TOO_MANY_ROOMS,
	PROTO_E_RATE_LIMITED,
	PROTO_E_TOO_MANY_SPECTATORS,
	PROTO_E_TOO_MANY_CONNECTIONS,
	PROTO_E_REPLACED,
	PROTO_E_INTERNAL,
	PROTO_E_COUNT
} proto_err;

/* The wire code of e ("bad_json", ...), or "internal" for an unknown value. */
const char *proto_err_code(int e);

#endif
