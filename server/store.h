/* store.h: what the rooms need of a store (the interface a second store,
 * such as a database server, would implement), and the SQLite one.
 *
 * Writes made during one pass of the event loop form one batch (one
 * transaction); store_flush() commits it at the end of the pass, and a
 * message that shows a write leaves only after that commit, so a move is
 * durable before it is broadcast. */
#ifndef SRV_STORE_H
#define SRV_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "server/rules.h"

typedef struct store store;

/* Called once per room loaded, with the moves of its current game in
 * order (pits, n of them; the array lives for the call; NULL when n is 0). */
typedef void store_load_fn(void *arg, const room_rec *r, const uint8_t *pits, int n);

typedef struct store_ops {
	/* Each write joins the open batch (opening one if needed) and is
	 * atomic within it: 0, or -1 (logged) with nothing of it written.
	 * A failure may also have lost the batch's earlier writes: then the
	 * next flush fails. */
	int (*insert)(store *s, const room_rec *r);
	int (*update)(store *s, const room_rec *r);
	/* Updates r and sets the moves of its current game to pits[0..n). */
	int (*update_moves)(store *s, const room_rec *r, const uint8_t *pits, int n);
	int (*remove)(store *s, const char *id);
	/* 1 when writes wait for a flush. */
	int (*pending)(const store *s);
	/* Commits the open batch: 0, or -1 when it is lost (rolled back: the
	 * store holds what the last successful flush committed). The store
	 * takes writes again afterwards. */
	int (*flush)(store *s);
	/* Commits a small write of its own: 0 when the store can write again
	 * after a failure, -1 when it still cannot (quietly: no log line). */
	int (*probe)(store *s);
	/* Flushes, then gives free pages back after deletions. */
	void (*reclaim)(store *s);
	/* Every room (fn once each): the number loaded, or -1. */
	int (*load)(store *s, store_load_fn *fn, void *arg);
	/* The room with that id: 1 (fn called), 0 when there is none, -1. */
	int (*load_room)(store *s, const char *id, store_load_fn *fn, void *arg);
	/* Closes the store, committing an open batch (NULL is fine). */
	void (*close)(store *s);
} store_ops;

/* Every store starts with its operations. */
struct store {
	const store_ops *ops;
};

/* Opens (creating) the SQLite database at path, its folder too if
 * missing, in WAL mode; sync_full selects synchronous=FULL over NORMAL.
 * Opening writes nothing unless the database is new or older than this
 * server, so a store on a full disk still opens. Returns NULL with a
 * reason in err on failure. */
store *store_sqlite_open(const char *path, int sync_full, char *err, size_t errlen);

#endif
