/* owcheck.c: checks an owared store after a load run: every room's stored
 * moves replay through the engine, its stored end agrees with the replay,
 * and (with a views file from `owload --views`) every move a client saw
 * acknowledged is in the store.
 *
 * usage: owcheck DB [VIEWS]     exit 0 when everything holds */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "engine/oware.h"

#define MAX_PLIES 4096

/* End reasons the server stores besides the engine's (protocol/message.h). */
enum { END_RESIGN = 16, END_AGREEMENT, END_ABANDONED, END_ABORTED };

/* One stored room, replayed. */
struct rinfo {
	char id[80];
	unsigned gn;
	int reason, winner, over, nmoves;
	char moves[MAX_PLIES + 1];
};

static sqlite3 *db;
static sqlite3_stmt *q_moves;

/* Replays the moves of r->id (a blob of pits in its row); returns 0 or -1
 * with a message printed. */
static int replay(struct rinfo *r)
{
	ow_game g;
	const uint8_t *pits;
	int n, ply = 0, bad = 0;

	ow_game_start(&g);
	sqlite3_reset(q_moves);
	sqlite3_bind_text(q_moves, 1, r->id, -1, SQLITE_STATIC);
	if (sqlite3_step(q_moves) != SQLITE_ROW) {
		printf("room %s: %s\n", r->id, sqlite3_errmsg(db));
		return -1;
	}
	pits = sqlite3_column_blob(q_moves, 0);
	n = sqlite3_column_bytes(q_moves, 0);
	if (n > MAX_PLIES) {
		printf("room %s: %d stored moves, more than a game can have\n", r->id, n);
		return -1;
	}
	for (; ply < n; ply++) {
		int e;

		if (g.end) {
			printf("room %s: a move stored at ply %d after the game ended\n", r->id, ply);
			return -1;
		}
		e = ow_game_play(&g, pits[ply], NULL);
		if (e) {
			printf("room %s: stored move %d at ply %d is illegal: %s\n", r->id, pits[ply],
			       ply, ow_strerror(e));
			bad = 1;
			break;
		}
		r->moves[ply] = ow_pit_letter(pits[ply]);
	}
	r->moves[ply] = 0;
	r->nmoves = ply;
	if (bad)
		return -1;
	if (r->reason && r->reason != END_RESIGN && r->reason != END_AGREEMENT &&
	    r->reason != END_ABANDONED && r->reason != END_ABORTED) {
		printf("room %s: stored reason %d is not one the server may store\n", r->id,
		       r->reason);
		return -1;
	}
	if (r->reason && g.end) {
		printf("room %s: stored reason %d, but the engine ended the game at ply %d\n",
		       r->id, r->reason, ply);
		return -1;
	}
	if (r->reason == END_ABORTED && ply > 1) {
		printf("room %s: aborted after %d moves\n", r->id, ply);
		return -1;
	}
	r->over = r->reason || g.end;
	return 0;
}

int main(int argc, char **argv)
{
	sqlite3_stmt *q_rooms = NULL, *q_one = NULL;
	struct rinfo r;
	long rooms = 0, moves = 0, over = 0, bad = 0, views = 0, exact = 0, behind = 0;
	long missing = 0;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: owcheck DB [VIEWS]\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL)) {
		fprintf(stderr, "owcheck: %s: %s\n", argv[1], sqlite3_errmsg(db));
		return 2;
	}
	sqlite3_busy_timeout(db, 5000);
	if (sqlite3_prepare_v2(db, "SELECT id, game_number, reason, winner FROM rooms", -1,
	                       &q_rooms, NULL) ||
	    sqlite3_prepare_v2(db, "SELECT moves FROM rooms WHERE id=?1", -1, &q_moves, NULL) ||
	    sqlite3_prepare_v2(db, "SELECT id, game_number, reason, winner FROM rooms WHERE id=?1",
	                       -1, &q_one, NULL)) {
		fprintf(stderr, "owcheck: %s: %s\n", argv[1], sqlite3_errmsg(db));
		return 2;
	}
	while ((rc = sqlite3_step(q_rooms)) == SQLITE_ROW) {
		memset(&r, 0, sizeof r);
		snprintf(r.id, sizeof r.id, "%s", (const char *)sqlite3_column_text(q_rooms, 0));
		r.gn = (unsigned)sqlite3_column_int(q_rooms, 1);
		r.reason = sqlite3_column_int(q_rooms, 2);
		r.winner = sqlite3_column_int(q_rooms, 3);
		rooms++;
		if (replay(&r) < 0) {
			bad++;
			continue;
		}
		moves += r.nmoves;
		over += r.over;
	}
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "owcheck: %s\n", sqlite3_errmsg(db));
		return 2;
	}
	if (argc == 3) {
		FILE *f = fopen(argv[2], "r");
		char id[80], mv[MAX_PLIES + 2];
		unsigned gn;
		int vover;

		if (!f) {
			perror(argv[2]);
			return 2;
		}
		while (fscanf(f, "%79s %u %d %4097s", id, &gn, &vover, mv) == 4) {
			size_t n = strcmp(mv, "-") ? strlen(mv) : 0;

			views++;
			sqlite3_reset(q_one);
			sqlite3_bind_text(q_one, 1, id, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(q_one) != SQLITE_ROW) {
				printf("room %s: seen by clients, missing from the store\n", id);
				missing++;
				continue;
			}
			memset(&r, 0, sizeof r);
			snprintf(r.id, sizeof r.id, "%s", id);
			r.gn = (unsigned)sqlite3_column_int(q_one, 1);
			r.reason = sqlite3_column_int(q_one, 2);
			if (replay(&r) < 0) {
				missing++;
				continue;
			}
			if (r.gn < gn || (r.gn == gn && (r.nmoves < (int)n ||
			                                 strncmp(r.moves, n ? mv : "", n)))) {
				printf("room %s: clients saw game %u with moves %s; the store has game "
				       "%u with %s\n", id, gn, n ? mv : "(none)", r.gn,
				       r.nmoves ? r.moves : "(none)");
				missing++;
			} else if (r.gn == gn && r.nmoves == (int)n) {
				exact++;
				if (vover != r.over) {
					printf("room %s: clients saw over=%d, the store replays to over=%d\n",
					       id, vover, r.over);
					missing++;
				}
			} else {
				behind++; /* a move (or rematch) stored whose broadcast nobody saw */
			}
		}
		fclose(f);
	}
	printf("owcheck: %ld rooms, %ld moves, %ld games over replayed; %ld bad", rooms, moves,
	       over, bad);
	if (argc == 3)
		printf("; %ld client views: %ld equal, %ld store ahead, %ld lost", views, exact,
		       behind, missing);
	printf("\n");
	sqlite3_finalize(q_rooms);
	sqlite3_finalize(q_moves);
	sqlite3_finalize(q_one);
	sqlite3_close(db);
	return bad || missing ? 1 : 0;
}
