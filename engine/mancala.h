/* mancala.h: what the engine's two games (Oware Abapa, engine/oware.h, and
 * Togyz Kumalak, engine/togyz.h) share: the two sides, why a game ended and
 * who won. Nothing else is shared: each game keeps its own board, moves,
 * errors and rules. Freestanding, like the engines. */
#ifndef OW_MANCALA_H
#define OW_MANCALA_H

/* The values of ow_side, ow_end and ow_winner are written to disk by the
 * server's store as they are: never renumber them. South moves first (in
 * Togyz Kumalak South is White, North is Black). */
typedef enum { OW_SOUTH = 0, OW_NORTH = 1 } ow_side;

/* Why a game ended, in the order docs/rules-oware.md checks them. Togyz
 * Kumalak has no repetition or move-limit rule: it ends only by SCORE or
 * NO_MOVES. */
typedef enum {
	OW_END_NONE = 0,
	OW_END_SCORE = 1,      /* a winning score (Oware 25, Togyz 82), or an even split (24-24, 81-81) */
	OW_END_REPETITION = 2, /* Oware: third occurrence of a position */
	OW_END_MOVE_LIMIT = 3, /* Oware: 160 plies without a capture */
	OW_END_NO_MOVES = 4    /* the side to move has no legal move */
} ow_end;

typedef enum {
	OW_NOBODY = -1, /* game not over */
	OW_WINNER_SOUTH = OW_SOUTH,
	OW_WINNER_NORTH = OW_NORTH,
	OW_DRAW = 2
} ow_winner;

#endif
