/* togyz.h: the Togyz Kumalak rules engine of docs/rules-togyz.md.
 *
 * Pure C11 with freestanding headers only, like engine/oware.h, and the same
 * shape of interface (tg_ mirrors ow_): a position, a game, legal moves,
 * play, the end, perft, a position checked from untrusted values. Every
 * function works on memory the caller owns. Sides, end reasons and winners
 * are the engine's shared ones (engine/mancala.h): South is White and moves
 * first, North is Black; a game ends by OW_END_SCORE or OW_END_NO_MOVES.
 *
 * Pits (holes) are indices 0..17 in sowing order: South owns 0..8 (its holes
 * 1..9), North owns 9..17 (its holes 1..9); after a side's 9th hole comes
 * the opponent's 1st. Errors are negative TG_E_* codes. */
#ifndef TG_TOGYZ_H
#define TG_TOGYZ_H

#include <stdint.h>

#include "engine/mancala.h" /* ow_side, ow_end, ow_winner */

#define TG_PITS 18
#define TG_ROW 9
#define TG_SEEDS 162
#define TG_WIN_SCORE 82 /* a score that wins at once; 81-81 is a draw */
#define TG_NONE 0xff    /* no tuzdyk, no pit */

/* The same number for the same meaning as OW_E_*; -4 and -9.. are Togyz's. */
typedef enum {
	TG_OK = 0,
	/* moves */
	TG_E_NOT_PIT = -1,       /* not a pit index (or hole number 1..9) */
	TG_E_NOT_YOURS = -2,     /* a pit of the side not to move */
	TG_E_EMPTY = -3,         /* the pit holds no seed */
	TG_E_TUZDYK = -4,        /* the pit is the opponent's tuzdyk (never sown) */
	TG_E_OVER = -5,          /* the game is over */
	/* positions */
	TG_E_NEGATIVE = -6,      /* a negative count */
	TG_E_SUM = -7,           /* pits and scores do not add up to 162 (or one is over 162) */
	TG_E_TURN = -8,          /* the side to move is neither south nor north */
	TG_E_TUZDYK_HOLE = -9,   /* a tuzdyk hole number not 1..8 (the 9th cannot be one) */
	TG_E_TUZDYK_TWIN = -10,  /* both tuzdyks have the same hole number */
	TG_E_TUZDYK_SEEDS = -11  /* a tuzdyk's hole holds seeds (they go to its owner at once) */
} tg_err;

/* A position: 24 bytes, copied freely. */
typedef struct tg_pos {
	uint8_t pits[TG_PITS];
	uint8_t captured[2]; /* indexed by ow_side */
	uint8_t tuzdyk[2];   /* indexed by owner: the pit (on the opponent's row), or TG_NONE */
	uint8_t turn;        /* ow_side to move */
	uint8_t pad_;        /* always 0, so positions compare bytewise */
} tg_pos;

/* What one move did. */
typedef struct tg_move_info {
	uint8_t pit;            /* the pit sown */
	uint8_t nsown;          /* seeds sown: entries of sown[] */
	uint8_t sown[TG_SEEDS]; /* pits that received a seed, in order (the first is pit
	                           itself when it held 2 or more); a seed sown into a
	                           tuzdyk went on to its owner's store */
	uint8_t last;           /* the pit of the last seed, sown[nsown - 1] */
	uint8_t captured;       /* the pit taken by a capture or made a tuzdyk, else TG_NONE */
	uint8_t seeds;          /* seeds taken from it (3 for a new tuzdyk) */
	uint8_t tuzdyk;         /* 1 when the move made captured the mover's tuzdyk */
	uint8_t to_tuzdyk[2];   /* seeds sown into each owner's tuzdyk (indexed by owner) */
} tg_move_info;

/* A game: a position plus its end. Plain data (28 bytes): copy it to
 * branch. Read the fields; change them only through the functions below. */
typedef struct tg_game {
	tg_pos pos;
	uint16_t ply;  /* moves played since the start position */
	int8_t end;    /* ow_end: OW_END_NONE, OW_END_SCORE or OW_END_NO_MOVES */
	int8_t winner; /* ow_winner */
} tg_game;

/* Static English text for a TG_E_* code ("" for TG_OK). */
const char *tg_strerror(int err);

/* The pit of hole number 1..9 of side; -1 for anything else. */
int tg_pit_of(int side, int number);
/* The hole number 1..9 of pit 0..17 (on its owner's side), or 0 for anything else. */
int tg_hole_number(int pit);

/* The standard start: 9 seeds a pit, no scores, no tuzdyk, South to move. */
void tg_pos_start(tg_pos *p);

/* Builds *p from untrusted values: pits[18] in pit order, captured[2] and
 * tuzdyk[2] indexed by side, a tuzdyk given as the hole number 1..9 of the
 * opponent's side it sits on, or 0 for none. Returns 0, or TG_E_NEGATIVE
 * (a count below 0), TG_E_SUM (a count above 162, or a total other than
 * 162), TG_E_TUZDYK_HOLE (a tuzdyk not 0..8: the 9th hole cannot be one), TG_E_TUZDYK_TWIN (two with the
 * same number), TG_E_TUZDYK_SEEDS (its pit holds seeds) or TG_E_TURN. The
 * first failing check in that order wins; *field names the culprit: pit
 * 0..17, 18 the south score, 19 the north score, 20 south's tuzdyk, 21
 * north's (the later of two twins), 22 the turn, -1 the total. *p is
 * untouched on failure; field may be NULL. A position set this way may
 * never arise in play; every rule still holds from it. */
int tg_pos_set(tg_pos *p, const int pits[TG_PITS], const int captured[2],
               const int tuzdyk[2], int turn, int *field);

/* Legal moves of the side to move as a bit mask (bit i = pit i): its pits
 * that hold seeds (a tuzdyk never does); 0 when there are none. */
uint32_t tg_legal_mask(const tg_pos *p);

/* 0 if pit is a legal move in p, else the TG_E_* reason (never TG_E_OVER). */
int tg_pos_check(const tg_pos *p, int pit);

/* Plays a move already known legal (tg_pos_check) on p: sowing, seeds into
 * tuzdyks, capture or tuzdyk, turn change. info may be NULL. */
void tg_pos_sow(tg_pos *p, int pit, tg_move_info *info);

/* Writes the Kazakh notation of the move info describes into out (at least
 * 4 bytes): the hole number sown, the hole number where the last seed
 * landed, "X" after a tuzdyk, then a NUL ("76", "58X"). Returns its length. */
int tg_notation(const tg_move_info *info, char out[4]);

/* Starts g from the standard position. */
void tg_game_start(tg_game *g);

/* Starts g from a valid position (from tg_pos_set). A position that is
 * already over (a score of 82, 81-81, or no legal move) yields a finished
 * game, settled as after a move. */
void tg_game_from(tg_game *g, const tg_pos *p);

/* Plays pit for the side to move and applies the end: a score of 82 or
 * more, or 81-81, ends the game as it stands; a side to move without a
 * legal move ends it after each side adds the seeds on its own row to its
 * score (the board is cleared). Returns 0, or a TG_E_* code and leaves g
 * unchanged. info may be NULL. */
int tg_game_play(tg_game *g, int pit, tg_move_info *info);

/* Number of legal move sequences of exactly depth plies from g (a line that
 * ends early adds nothing); 0 for a depth below 0 or above 64. */
uint64_t tg_perft(const tg_game *g, int depth);

#endif
