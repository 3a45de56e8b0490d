/* pairing.h: the pairings of a club event: round robin by the FIDE Berger
 * tables (Handbook C.05 Annex 1) and Swiss by the FIDE Dutch system (C.04.3
 * of 2025 or, an event's option, of 2017, with the general handling of
 * C.04.2). It knows no
 * connection, store, clock or file: the caller (the event rules, or
 * server/rules/trf.h for a Tournament Report File) fills a pair_event with the
 * history of the rounds played and gets the next round back. Nothing here
 * allocates: the Swiss pairing works in memory the caller provides
 * (pair_work_size).
 *
 * Bounds: PAIR_MAX_PLAYERS players (starting ranks 1..PAIR_MAX_PLAYERS) and
 * PAIR_MAX_ROUNDS rounds. Past them a call fails with PAIR_ERANGE. */
#ifndef SRV_PAIRING_H
#define SRV_PAIRING_H

#include <stddef.h>
#include <stdint.h>

#define PAIR_MAX_PLAYERS 256
#define PAIR_MAX_ROUNDS 32

/* Errors: 0 is success, each failure one of these. */
#define PAIR_ERANGE (-1)        /* a bound above, or an index out of range */
#define PAIR_EINVAL (-2)        /* an inconsistent history (see pair_check) */
#define PAIR_ENOPAIRING (-3)    /* no pairing satisfies the absolute criteria */
#define PAIR_ENOMEM (-4)        /* the caller's work area is too small */

/* The colour a player had or gets: white is the side that moves first
 * (South in Oware Abapa, White in Togyz Kumalak). */
enum pair_color { PAIR_NOCOLOR = 0, PAIR_WHITE = 1, PAIR_BLACK = 2 };

/* One player's one round, as a TRF column holds it. result is a TRF-16
 * code: '1' '=' '0' a played game (won, drawn, lost), 'W' 'D' 'L' the same
 * for a game not rated, '+' '-' a forfeit (won, lost: the opponent is known,
 * the game unplayed), 'H' 'F' 'Z' a half-point, full-point or zero-point
 * bye the player did not get from the pairing (a requested bye, a round
 * missed by a late entry, an absence), 'U' the pairing-allocated bye, and
 * ' ' nothing recorded (taken as 'Z'). opp is the opponent's index in
 * pair_event.p (starting rank - 1), or -1 for none. */
typedef struct pair_game {
	int16_t opp;
	uint8_t color;               /* enum pair_color */
	char result;
} pair_game;

/* A player: starting rank is the index in pair_event.p plus one. rounds[]
 * holds the rounds recorded so far (nrounds of them). A player whose entry
 * for the round being paired is already there (nrounds > the rounds
 * played: a bye asked for, an absence, a withdrawal) is not paired. */
typedef struct pair_player {
	int rating;
	int nrounds;
	pair_game rounds[PAIR_MAX_ROUNDS];
} pair_player;

/* The text of the Dutch system a Swiss is paired by: the rules in force,
 * "the 2025 rules" (C.04.3 applied from 1 February 2026, approved by the
 * FIDE Council on 28 October 2025), or those of 2017 (C.04.3 of the 87th
 * and 88th Congresses), an event's option. */
enum pair_rules { PAIR_DUTCH_2025 = 0, PAIR_DUTCH_2017 = 1 };

/* An event as the pairing sees it, owned by the caller. */
typedef struct pair_event {
	int nplayers;
	int rules;                   /* enum pair_rules */
	int total_rounds;            /* rounds planned (the last-round rules need it) */
	int first_color;             /* PAIR_WHITE or PAIR_BLACK: what starting rank
	                              * 1 gets in round 1 (TRF's XXC white1/black1);
	                              * PAIR_NOCOLOR: inferred from round 1, else white */
	pair_player p[PAIR_MAX_PLAYERS];
} pair_event;

/* One board of a round: white and black are indices in pair_event.p;
 * black is -1 when white gets the pairing-allocated bye. */
typedef struct pair_board {
	int16_t white, black;
} pair_board;

/* The rounds of ev with a result for every paired player: the largest
 * nrounds of a player who took part in a pairing (a bye entered ahead, 'H'
 * 'F' 'Z', does not count). */
int pair_rounds_played(const pair_event *ev);

/* Checks ev: bounds, opponents that point back at each other with opposite
 * colours and matching results. Returns 0, or PAIR_ERANGE / PAIR_EINVAL
 * with a message in err (errlen bytes, may be 0). */
int pair_check(const pair_event *ev, char *err, size_t errlen);

/* Points of a result in half points (a win 2, a draw or 'H' 1, else 0). */
int pair_result_halves(char result);

/* A player's score in half points after the first `rounds` rounds. */
int pair_score_halves(const pair_player *pl, int rounds);

/* The Berger table (C.05 Annex 1) for n players (1..PAIR_MAX_PLAYERS):
 * round `round` (1-based) of the first cycle, or of the second when round >
 * the rounds of a cycle (n - 1 for even n, n for odd), with the colours
 * swapped. Writes the boards to out (at least (n + 1) / 2 of them), white
 * first, in the table's board order; with odd n the player meeting the
 * extra number n + 1 gets the bye (black -1), listed last. Players are the
 * table numbers minus one. Returns the number of boards, or PAIR_ERANGE. */
int pair_berger(int n, int round, pair_board *out);

/* The rounds of one cycle of a round robin of n players. */
int pair_berger_rounds(int n);

/* Bytes of work memory pair_dutch needs for n players (n <= PAIR_MAX_PLAYERS). */
size_t pair_work_size(int n);

/* Pairs the next round of the Swiss ev by the Dutch system (C.04.3) of
 * ev->rules: absolute criteria (no second meeting, absolute colour
 * preferences outside the last round's topscorers, at most one
 * pairing-allocated bye, not to a player who won by forfeit, nor under the
 * 2025 rules to one who had a full-point bye), then the quality criteria
 * in their order, brackets from the top, colours by C.04.3 E (4 in 2025). Players with an entry for
 * the round already are left out. work is the caller's memory of
 * pair_work_size(ev->nplayers) bytes (work_len), aligned for uint64_t.
 * On success writes the boards to out (room for PAIR_MAX_PLAYERS / 2 + 1)
 * sorted as a pairing program lists them (the bye last), stores their number
 * in *nboards and returns 0; else returns an error with a message in err
 * and out is undefined. */
int pair_dutch(const pair_event *ev, void *work, size_t work_len,
	pair_board *out, int *nboards, char *err, size_t errlen);

/* Internal, shared with trf.c: formats a message into err (errlen bytes,
 * may be 0: nothing written). */
__attribute__((format(printf, 3, 4)))
void pair__set_err(char *err, size_t errlen, const char *fmt, ...);

/* Internal, shared with pair_dutch.c: a game played over the board (a
 * result 1 = 0 W D L with an opponent); a round in which the player took
 * part in the pairing (a game, played or forfeited, or the bye 'U'). */
int pair__played(const pair_game *g);
int pair__took_part(const pair_game *g);

#endif
