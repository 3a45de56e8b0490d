/* oware.h: the Oware Abapa rules engine of docs/rules-oware.md.
 *
 * Pure C11 with freestanding headers only: no allocation, no I/O, no libc
 * calls. The same sources build the server, the `oware` tool and
 * web/engine.wasm. Every function works on memory the caller owns.
 *
 * Pits are indices 0..11 in sowing order: South owns 0..5 (`a`..`f`),
 * North owns 6..11 (`A`..`F`). Errors are negative OW_E_* codes. */
#ifndef OW_OWARE_H
#define OW_OWARE_H

#include <stdint.h>

#include "engine/mancala.h" /* ow_side, ow_end, ow_winner */

#define OW_PITS 12
#define OW_ROW 6
#define OW_SEEDS 48
#define OW_WIN_SCORE 25  /* a score that wins at once */
#define OW_MOVE_LIMIT 160 /* plies without a capture that end the game */
/* Positions kept for the repetition rule: every position since the last
 * capture (a capture changes the seeds on the board, so no earlier position
 * can recur), at most OW_MOVE_LIMIT moves plus the one they started from. */
#define OW_HISTORY (OW_MOVE_LIMIT + 1)

typedef enum {
	OW_OK = 0,
	/* moves */
	OW_E_NOT_PIT = -1,   /* not a pit index or letter */
	OW_E_NOT_YOURS = -2, /* a pit of the side not to move */
	OW_E_EMPTY = -3,     /* the pit holds no seed */
	OW_E_MUST_FEED = -4, /* the opponent's row is empty and this move does not reach it */
	OW_E_OVER = -5,      /* the game is over */
	/* positions */
	OW_E_NEGATIVE = -6,  /* a negative count */
	OW_E_SUM = -7,       /* pits and scores do not add up to 48 (or one is over 48) */
	OW_E_TURN = -8       /* the side to move is neither south nor north */
} ow_err;

/* A position: 16 bytes, copied freely. */
typedef struct ow_pos {
	uint8_t pits[OW_PITS];
	uint8_t captured[2]; /* indexed by ow_side */
	uint8_t turn;        /* ow_side to move */
	uint8_t pad_;        /* always 0, so positions compare bytewise */
} ow_pos;

/* What one move did. */
typedef struct ow_move_info {
	uint8_t pit;                /* the pit sown */
	uint8_t nsown;              /* seeds sown: entries of sown[] */
	uint8_t sown[OW_SEEDS];     /* pits that received a seed, in order */
	uint8_t ncaptured;          /* entries of captured[]; 0 after a grand slam */
	uint8_t captured[OW_ROW];   /* pits taken, from the last one sown backwards */
	uint8_t seeds;              /* seeds captured */
	uint8_t grand_slam;         /* 1 when a capture of the whole row was annulled */
} ow_move_info;

/* An exact key of a position's pits and side to move (ow_pos_key). */
struct ow_key { uint64_t lo, hi; };

/* A game: a position plus what the end conditions need. Plain data
 * (about 1.3 KB; a server holds one per room): copy it to branch. Read
 * the fields; change them only through the functions below. */
typedef struct ow_game {
	ow_pos pos;
	uint16_t ply;   /* moves played since the start position */
	uint16_t quiet; /* moves since the last capture (or the start) */
	int8_t end;     /* ow_end */
	int8_t winner;  /* ow_winner */
	uint16_t nseen; /* entries of seen[]: positions since the last capture */
	/* Their keys, 8 bytes each: exact among positions with the same seeds
	 * on the board, as every position since a capture has (see
	 * oware_internal.h, ow__hkey). */
	uint64_t seen[OW_HISTORY];
} ow_game;

/* Static English text for an OW_E_* code ("" for OW_OK). */
const char *ow_strerror(int err);

/* Pit letters: 'a'..'f' -> 0..5, 'A'..'F' -> 6..11; -1 for anything else. */
int ow_pit_parse(int letter);
/* The letter of pit 0..11, or '?' for anything else. */
char ow_pit_letter(int pit);

/* The standard start: 4 seeds a pit, no scores, South to move. */
void ow_pos_start(ow_pos *p);

/* Builds *p from untrusted values. Returns 0, or OW_E_NEGATIVE (a count
 * below 0), OW_E_SUM (a count above 48, or a total other than 48) or
 * OW_E_TURN (turn not OW_SOUTH or OW_NORTH). *field names the culprit: pit
 * 0..11, 12 the south score, 13 the north score, 14 the turn, -1 the total.
 * *p is untouched on failure; field may be NULL. */
int ow_pos_set(ow_pos *p, const int pits[OW_PITS], const int captured[2],
               int turn, int *field);

/* Legal moves of the side to move as a bit mask (bit i = pit i); 0 when
 * there are none. Ignores end conditions that need a game's history. */
unsigned ow_legal_mask(const ow_pos *p);

/* 0 if pit is a legal move in p, else the OW_E_* reason (never OW_E_OVER). */
int ow_pos_check(const ow_pos *p, int pit);

/* Plays a move already known legal (ow_pos_check) on p: sowing, capture,
 * grand slam, turn change. info may be NULL. */
void ow_pos_sow(ow_pos *p, int pit, ow_move_info *info);

/* The exact key of p's pits and side to move (not the scores): the key
 * ow_game.seen[] holds for the repetition rule. */
struct ow_key ow_pos_key(const ow_pos *p);

/* Starts g from the standard position. */
void ow_game_start(ow_game *g);

/* Starts g from a valid position (from ow_pos_set), which counts as the first
 * occurrence for repetition. A position that is already over (a score of 25,
 * 24-24, or no legal move) yields a finished game. */
void ow_game_from(ow_game *g, const ow_pos *p);

/* Plays pit for the side to move and applies the end conditions. Returns 0,
 * or an OW_E_* code and leaves g unchanged. info may be NULL. */
int ow_game_play(ow_game *g, int pit, ow_move_info *info);

/* Number of legal move sequences of exactly depth plies from g (a line that
 * ends early adds nothing). */
uint64_t ow_perft(const ow_game *g, int depth);

#endif
