/* event.h: the rules of a club event (issue 41, docs/events.md "The
 * event's rules"): entries, withdrawals, rounds paired by server/rules/pairing.h,
 * results, the end, standings with their tie-breaks, and the exports (TRF,
 * CSV). Like server/rules/rules.h it decides and knows no connection, store,
 * clock or I/O: each decision reads a const ev_event and fills an
 * ev_change, or returns an error and changes nothing; the caller saves the
 * change, and only then ev_apply()s it. Replaying the saved changes in
 * order through ev_apply() rebuilds the event (the changes carry the
 * pairings, so a replay never pairs again). Who may ask for a decision
 * (the organiser, a player by his token, a room) is the caller's check. */
#ifndef SRV_EVENT_H
#define SRV_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "protocol/message.h"
#include "protocol/text.h"
#include "server/rules/pairing.h"

#define EV_MAX_PLAYERS PAIR_MAX_PLAYERS    /* the field */
#define EV_MAX_ENTRIES (2 * EV_MAX_PLAYERS) /* entries, withdrawn ones too */
#define EV_MAX_ROUNDS PAIR_MAX_ROUNDS
#define EV_MAX_BOARDS (EV_MAX_PLAYERS / 2 + 1)
#define EV_TITLE_MAX 60                    /* code points of the event's name */
#define EV_TITLE_BYTES (EV_TITLE_MAX * 4)
#define EV_NAME_BYTES PROTO_NAME_BYTES

/* Errors: 0 is success; each is a decision refused, nothing changed. */
#define EV_E_INVAL (-1)      /* a bad setting (format, rounds, kind, clock, limit) */
#define EV_E_STATE (-2)      /* not now: joining a started round robin, starting twice... */
#define EV_E_NAME (-3)       /* a name that is not a valid name */
#define EV_E_NAME_TAKEN (-4) /* a name in use in the event, or one alike (proto_name_key) */
#define EV_E_FULL (-5)       /* the player limit, or the format's bound, reached */
#define EV_E_LATE (-6)       /* a Swiss's late entries closed (half its rounds started) */
#define EV_E_PLAYER (-7)     /* no such entry */
#define EV_E_WITHDRAWN (-8)  /* the player has withdrawn already */
#define EV_E_FEW (-9)        /* start with fewer than 2 players */
#define EV_E_ROUND (-10)     /* a round not started, or not the current one */
#define EV_E_BOARD (-11)     /* no such board, or a bye */
#define EV_E_DONE (-12)      /* the board has a result and the room may not change it */
#define EV_E_RESULT (-13)    /* a bad result code or seed count */
#define EV_E_PENDING (-14)   /* a board of the round has no result yet */
#define EV_E_OVER (-15)      /* the event is over */
#define EV_E_PAIRING (-16)   /* the Swiss cannot be paired (C.04.3's absolute criteria) */
#define EV_E_NOMEM (-17)     /* the pairing's work memory */
#define EV_E_NAME_WORD (-18) /* a name that reads as a word of the event (proto_name_event_word) */

/* A one-line English text for an EV_E_* code. */
const char *ev_strerror(int code);

enum ev_format { EV_ROUND_ROBIN = 1, EV_DOUBLE_ROUND_ROBIN = 2, EV_SWISS = 3 };
/* The rules an event follows (docs/events.md "Rules in force"): those in
 * force, the FIDE Dutch system of 2025 (a Swiss's pairings) and the FIDE
 * Tie-Break Regulations of 2024 (C.07); or the older texts, the Dutch system
 * of 2017 and C.07 as it stood before 2023, which events created before the
 * change keep. */
enum ev_rules { EV_RULES_2025 = 0, EV_RULES_2017 = 1 };
enum ev_state { EV_ENTRY = 0, EV_RUNNING = 1, EV_OVER = 2 };
/* Who reports a result: the room (played games only, once) or the organiser. */
enum ev_by { EV_BY_ROOM = 0, EV_BY_ORGANISER = 1 };

/* A board's result, from white's side (white moves first: South in Oware,
 * White in Togyz Kumalak). The byes are set by the pairing. */
#define EV_RES_NONE 0
#define EV_RES_WHITE '1'        /* white won */
#define EV_RES_DRAW '='
#define EV_RES_BLACK '0'        /* black won */
#define EV_RES_WHITE_FF '+'     /* white won by forfeit (black did not come) */
#define EV_RES_BLACK_FF '-'     /* black won by forfeit */
#define EV_RES_DOUBLE_FF '*'    /* neither came: both lose */
#define EV_RES_BYE 'U'          /* Swiss: the pairing-allocated bye, 1 point */
#define EV_RES_RR_BYE 'Z'       /* round robin, odd field: the table's bye, 0 points */

/* The clock of the event's games: a room clock (PROTOCOL.md "Clocks"),
 * in create's units; kind PROTO_CLOCK_NONE for games on real boards. */
typedef struct ev_clock {
	int kind;                    /* PROTO_CLOCK_* */
	int initial;                 /* realtime: seconds a side */
	int increment;               /* realtime: seconds a move */
	int days;                    /* correspondence: days a move */
} ev_clock;

/* What an event is created with. */
typedef struct ev_settings {
	const char *title;           /* the event's name (any text; cleaned) */
	const char *kind;            /* "oware" or "togyz" */
	int format;                  /* enum ev_format */
	int rounds;                  /* Swiss: rounds planned, 1..EV_MAX_ROUNDS; else 0 */
	ev_clock clock;
	int max_players;             /* 0: no limit but EV_MAX_PLAYERS; else 2..EV_MAX_PLAYERS */
	int rules;                   /* enum ev_rules */
} ev_settings;

/* One entry: a player who joined. number is his starting rank once he is
 * in the field (from the start, or on a late entry), else 0. */
typedef struct ev_player {
	char name[EV_NAME_BYTES + 1];
	int number;                  /* 1..nfield, or 0 */
	int late;                    /* rounds started when he entered (its H byes) */
	int withdrawn;               /* 0, or 1 + the rounds started when he withdrew */
} ev_player;

/* One board of a round: white and black are starting ranks minus one;
 * black -1 for a bye. seeds: what each side captured (played games). */
typedef struct ev_board {
	int16_t white, black;
	char result;                 /* EV_RES_* */
	int16_t seeds[2];            /* white's, black's */
} ev_board;

typedef struct ev_round {
	int nboards;
	ev_board boards[EV_MAX_BOARDS];
} ev_round;

/* An event, owned by the caller (about 100 kB): ev_create() fills it,
 * ev_apply() changes it. Read it freely; change it only so. */
typedef struct ev_event {
	char title[EV_TITLE_BYTES + 1];
	char kind[PROTO_KIND_MAX + 1];
	int format;
	int total_rounds;            /* Swiss: as created; round robin: set at the start */
	ev_clock clock;
	int max_players;
	int rules;                   /* enum ev_rules */
	int state;                   /* enum ev_state */
	int nentries;
	ev_player entries[EV_MAX_ENTRIES];
	int nfield;                  /* players with a starting rank */
	int16_t field[EV_MAX_PLAYERS]; /* entry index by starting rank - 1 */
	int nrounds;                 /* rounds paired (started) */
	ev_round rounds[EV_MAX_ROUNDS];
} ev_event;

/* A decided change, to save and then ev_apply(). */
enum ev_op { EV_OP_JOIN = 1, EV_OP_WITHDRAW, EV_OP_ROUND, EV_OP_RESULT, EV_OP_END };

typedef struct ev_change {
	int op;                      /* enum ev_op */
	int entry;                   /* JOIN: the new entry's index; WITHDRAW: the entry */
	char name[EV_NAME_BYTES + 1]; /* JOIN: the cleaned name */
	int round;                   /* ROUND: its number (1 = the start); RESULT: the
	                              * board's round; JOIN: the H byes of a late entry;
	                              * WITHDRAW: the round whose board he forfeits, or 0 */
	int board;                   /* RESULT: the board (0-based); WITHDRAW: his board
	                              * forfeited in round `round`, or -1 */
	char result;                 /* RESULT: EV_RES_* */
	int seeds[2];                /* RESULT: white's and black's seeds captured */
	int nboards;                 /* ROUND */
	ev_board boards[EV_MAX_BOARDS]; /* ROUND: the pairing, byes and the forfeits of
	                              * withdrawn players already scored */
} ev_change;

/* A new event in *ev (the caller's memory, zeroed or not) from s:
 * 0, or EV_E_INVAL and *ev unspecified. The caller saves the settings. */
int ev_create(ev_event *ev, const ev_settings *s);

/* A player joins with a name (len bytes, UTF-8; cleaned and checked as
 * room names are, and refused when it reads as a word of the event or
 * looks like another player's: protocol/text.h). Before the start in any
 * format; in a Swiss also after it while 2 x the rounds started < the
 * rounds planned (a late entry, with a half-point bye for each round
 * started). EV_E_STATE, EV_E_LATE, EV_E_NAME, EV_E_NAME_WORD,
 * EV_E_NAME_TAKEN, EV_E_FULL, EV_E_OVER. */
int ev_join(const ev_event *ev, const char *name, size_t len, ev_change *ch);

/* 1 when ev_join would take a new player with a free, valid name now. */
int ev_join_open(const ev_event *ev);

/* Entry `entry` withdraws. Before the start his entry is gone (his name
 * free again); after it he is not paired again (Swiss) or loses his
 * remaining games by forfeit (round robin), and a game of his in the
 * current round without a result is lost by forfeit. EV_E_PLAYER,
 * EV_E_WITHDRAWN, EV_E_OVER. */
int ev_withdraw(const ev_event *ev, int entry, ev_change *ch);

/* The organiser starts the event: the entries in the order of entry become
 * starting ranks 1..n and round 1 is paired (a Swiss's pairing allocates
 * its work memory for the call, as ev_next does). EV_E_STATE (started),
 * EV_E_FEW, EV_E_FULL (a round robin of more than fits EV_MAX_ROUNDS),
 * EV_E_PAIRING, EV_E_NOMEM. */
int ev_start(const ev_event *ev, ev_change *ch);

/* A result for board `board` of round `round` (1-based). From the room:
 * '1' '=' '0' for a board of the current round without a result, with the
 * seeds each side captured. From the organiser: also '+' '-' '*'
 * (forfeits: seeds 0) and corrections of any started round's board, also
 * after the end (the pairings made stand).
 * EV_E_STATE, EV_E_ROUND, EV_E_BOARD, EV_E_DONE, EV_E_RESULT. */
int ev_result(const ev_event *ev, int by, int round, int board, char result,
	const int seeds[2], ev_change *ch);

/* The next step once every board of the current round has a result: the
 * next round paired (EV_OP_ROUND), or the end (EV_OP_END) after the last
 * round, or when fewer than 2 players of a Swiss are left. The caller
 * asks for it after each result (automatic) or when the organiser says.
 * EV_E_STATE, EV_E_PENDING, EV_E_PAIRING, EV_E_NOMEM. */
int ev_next(const ev_event *ev, ev_change *ch);

/* 1 when the next ev_start (an event taking entries) or ev_next (a
 * running one) would pair a Swiss round: the call that may take seconds
 * (docs/events.md "Pairing off the loop"), which the server makes on a
 * copy of ev in a helper thread. A round robin's Berger table, the end
 * and the refusals are immediate: 0. */
int ev_will_pair(const ev_event *ev);

/* The organiser ends a running event between rounds (every board with a
 * result; the rounds left are not played). EV_E_STATE, EV_E_PENDING. */
int ev_finish(const ev_event *ev, ev_change *ch);

/* Applies a change that a decision on this very state returned. */
void ev_apply(ev_event *ev, const ev_change *ch);

/* The rounds every board of which has a result (what the standings count). */
int ev_rounds_complete(const ev_event *ev);

/* The history as the pairing sees it after `rounds` rounds (<= nrounds):
 * one pair_player a starting rank, the rounds missed by a late entry 'H',
 * those after a Swiss withdrawal 'Z', forfeits without colour. */
void ev_pair_event(const ev_event *ev, int rounds, pair_event *out);

/* ---- standings ---- */

/* The tie-breaks (docs/events.md "Standings"). */
enum ev_tb { EV_TB_SB = 1, EV_TB_DE, EV_TB_BH_C1, EV_TB_BH, EV_TB_SEEDS, EV_TB_WIN, EV_TB_KS };
#define EV_TB_MAX 5

/* The event's tie-breaks in order into tb[EV_TB_MAX]; returns how many.
 * Rules EV_RULES_2025 (C.07 of 2024): round robin DE, WIN, SB, KS, SEEDS;
 * Swiss BH_C1, BH, DE, SB, SEEDS. EV_RULES_2017 (C.07 before 2023): round
 * robin SB, DE, SEEDS; Swiss BH_C1, BH, SB, SEEDS. */
int ev_tiebreaks(const ev_event *ev, int *tb);
/* The CSV column name of a tie-break ("sonneborn_berger", ...). */
const char *ev_tb_name(int tb);

/* One line of the standings. Points and tie-breaks are in quarter points
 * (seeds: 4 x the seeds), exact. */
typedef struct ev_standing {
	int entry;                   /* index in ev->entries */
	int number;                  /* starting rank */
	int place, place_last;       /* shared when place < place_last */
	int points;                  /* quarter points */
	int tb[EV_TB_MAX];           /* in ev_tiebreaks' order, quarter points
	                              * (counts, as wins, 4 each) */
	int games, wins, draws, losses; /* games with an opponent, forfeits included */
	int withdrawn;
} ev_standing;

/* The standings after the complete rounds, best first (shared places by
 * starting rank) into out (room for ev->nfield); returns their number, or
 * EV_E_NOMEM (its work memory). */
int ev_standings(const ev_event *ev, ev_standing *out);

/* The standings of a bare history as ev_standings ranks an event of that
 * format and rules: the first `rounds` rounds of pe, seeds[i] what
 * starting rank i + 1 captured (NULL: none). entry is the index in pe,
 * withdrawn 0. Returns pe->nplayers, or EV_E_NOMEM. */
int ev_standings_of(const pair_event *pe, int rounds, int format, int rules,
	const int *seeds, ev_standing *out);

/* ---- exports ---- */

/* The event as TRF-16 text (server/rules/trf.h's writer: 012, XXR, XXC, a 001
 * line a player with the rank of the standings) into buf (cap bytes,
 * NUL-terminated). Returns the length, or the length needed (>= cap) as
 * snprintf does; -1 out of memory. */
long ev_trf(const ev_event *ev, char *buf, size_t cap);

/* The standings as CSV (docs/events.md "CSV columns"), header first, lines
 * ended by CR LF (RFC 4180), into buf like ev_trf. */
long ev_csv(const ev_event *ev, char *buf, size_t cap);

#endif
