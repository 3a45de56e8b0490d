/* errors.c: the wire names of the protocol's error codes (no JSON library). */
#include "protocol/errors.h"

static const char *const err_codes[PROTO_E_COUNT] = {
	[PROTO_E_NONE] = "none",
	[PROTO_E_BAD_JSON] = "bad_json",
	[PROTO_E_BAD_MESSAGE] = "bad_message",
	[PROTO_E_UNKNOWN_TYPE] = "unknown_type",
	[PROTO_E_NOT_JOINED] = "not_joined",
	[PROTO_E_ALREADY_JOINED] = "already_joined",
	[PROTO_E_NO_ROOM] = "no_room",
	[PROTO_E_BAD_TOKEN] = "bad_token",
	[PROTO_E_NOT_A_PLAYER] = "not_a_player",
	[PROTO_E_NOT_YOUR_TURN] = "not_your_turn",
	[PROTO_E_ILLEGAL_MOVE] = "illegal_move",
	[PROTO_E_STALE_PLY] = "stale_ply",
	[PROTO_E_GAME_OVER] = "game_over",
	[PROTO_E_GAME_NOT_OVER] = "game_not_over",
	[PROTO_E_NO_OFFER] = "no_offer",
	[PROTO_E_OFFER_PENDING] = "offer_pending",
	[PROTO_E_CANNOT_ABORT] = "cannot_abort",
	[PROTO_E_CANNOT_CLAIM] = "cannot_claim",
	[PROTO_E_OPPONENT_MISSING] = "opponent_missing",
	[PROTO_E_TOO_MANY_ROOMS] = "too_many_rooms",
	[PROTO_E_RATE_LIMITED] = "rate_limited",
	[PROTO_E_TOO_MANY_SPECTATORS] = "too_many_spectators",
	[PROTO_E_TOO_MANY_CONNECTIONS] = "too_many_connections",
	[PROTO_E_REPLACED] = "replaced",
	[PROTO_E_INTERNAL] = "internal",
	[PROTO_E_NO_EVENT] = "no_event",
	[PROTO_E_NOT_ORGANISER] = "not_organiser",
	[PROTO_E_EVENT_STATE] = "event_state",
	[PROTO_E_NAME_TAKEN] = "name_taken",
	[PROTO_E_EVENT_FULL] = "event_full",
	[PROTO_E_ENTRIES_CLOSED] = "entries_closed",
	[PROTO_E_WITHDRAWN] = "withdrawn",
	[PROTO_E_TOO_FEW_PLAYERS] = "too_few_players",
	[PROTO_E_BAD_BOARD] = "bad_board",
	[PROTO_E_ROUND_PENDING] = "round_pending",
	[PROTO_E_EVENT_OVER] = "event_over",
	[PROTO_E_CANNOT_PAIR] = "cannot_pair",
	[PROTO_E_PAIRING] = "pairing",
	[PROTO_E_EVENT_GAME] = "event_game",
	[PROTO_E_TOO_MANY_EVENTS] = "too_many_events",
	[PROTO_E_NAME_RESERVED] = "name_reserved",
	[PROTO_E_PUSH_REFUSED] = "push_refused",
};

const char *proto_err_code(int e)
{
	if (e <= PROTO_E_NONE || e >= PROTO_E_COUNT)
		return "internal";
	return err_codes[e];
}
