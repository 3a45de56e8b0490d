/* store.h: the SQLite (WAL) store of rooms and their moves. Writes made
 * during one pass of the event loop form one transaction (group commit);
 * store_flush() commits it at the end of the pass, and a message queued
 * while a batch was open leaves only after that commit, so a move is
 * durable before it is broadcast. */
#ifndef SRV_STORE_H
#define SRV_STORE_H

#include <stdint.h>

#include "server/sha256.h"

#define STORE_ID_LEN 36

/* The persistent part of a room. */
typedef struct store_room {
	char id[STORE_ID_LEN + 1];
	char kind[16];
	int64_t created, updated;  /* wall-clock seconds */
	unsigned game_number;
	uint64_t version;
	int has_tok[2];            /* a seat is taken (indexed by ow_side) */
	uint8_t tok[2][SHA256_LEN]; /* SHA-256 of each seat's token */
	int reason;                /* PROTO_END_* that ended the game, or 0 */
	int winner;                /* with reason: ow_winner */
	int draw_offer, rematch_offer; /* side, or -1 */
} store_room;

typedef struct store store;

/* Opens (creating) the database at path, its folder too if missing, in
 * WAL mode; sync_full selects synchronous=FULL over NORMAL. Returns NULL
 * with a reason in err on failure. */
store *store_open(const char *path, int sync_full, char *err, size_t errlen);
/* Closes the database (NULL is fine). */
void store_close(store *s);

/* Each write below joins the open batch (opening one if needed) and is
 * atomic within it. Each returns 0, or -1 (logged) with nothing of that
 * operation written. */
int store_room_insert(store *s, const store_room *r);
int store_room_update(store *s, const store_room *r);
/* Updates r and sets the moves of its current game to pits[0..n) (n = 0
 * for a new game), atomically. */
int store_moves_update(store *s, const store_room *r, const uint8_t *pits, int n);
int store_room_delete(store *s, const char *id);
/* 1 when writes wait for store_flush(). */
int store_pending(const store *s);
/* Batches committed so far: a message made while a batch is open waits
 * until this count passes the one it saw. */
uint64_t store_commits(const store *s);
/* Commits the open batch (one sync). Returns 0, or -1 when the store
 * failed: the batch is lost, memory is ahead of the store, and the caller
 * must stop (a restart restores the last committed state). */
int store_flush(store *s);
/* Flushes, then gives free pages back to the file system after deletions. */
void store_reclaim(store *s);

/* Calls fn once per stored room with its moves in order (pits, n of them;
 * the array lives for the call; NULL when n is 0). Returns the rooms
 * loaded, or -1. */
typedef void store_load_fn(void *arg, const store_room *r, const uint8_t *pits, int n);
int store_load(store *s, store_load_fn *fn, void *arg);

#endif
