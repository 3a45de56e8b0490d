/* owload.c: load generator for owared. Worker processes each run one
 * libwebsockets client context holding rooms of two players (plus
 * spectators) that speak `oware.v1` (create, join by ws?room=<id>, moves
 * with the right ply, rematches, drops and reconnects with seat tokens).
 * Every room mirrors its game with the engine, picks legal moves from it and
 * checks that no acknowledged move is ever lost. With --attack-*, one more
 * process runs attackers beside them (bench/attack.c). The parent paces
 * phases, samples the server's /proc, and prints one table. See
 * bench/README.md. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ev.h>
#include <libwebsockets.h>

#include "bench/attack.h"
#include "bench/hist.h"
#include "bench/jscan.h"
#include "bench/rng.h"
#include "engine/oware.h"
#include "protocol/errors.h"

#define MAX_PROCS 16
#define MAX_SPECT 8
#define RX_MAX (64 * 1024) /* largest server message accepted */
#define QLEN 4             /* outgoing messages queued per connection */
#define MSG_MAX 200        /* longest client message we build */

/* Errors by code: the server's (a proto_err; PROTO_E_NONE counts a code
 * this build does not know), then ours. */
enum { E_CONNECT = PROTO_E_COUNT, E_CLOSED, E_LOST_ACK, E_MISMATCH, E_BAD_MSG,
       E_QFULL, E_TIMEOUT, E_COUNT };
static const char *const client_err_names[E_COUNT - E_CONNECT] = {
	"connect_failed", "closed_by_server", "lost_ack", "engine_mismatch",
	"bad_server_message", "client_queue_full", "join_timeout",
};

static const char *err_name(int e)
{
	if (e == PROTO_E_NONE)
		return "(other server code)";
	return e < PROTO_E_COUNT ? proto_err_code(e) : client_err_names[e - E_CONNECT];
}

enum { PH_IDLE, PH_RAMP, PH_STEADY, PH_DRAIN, PH_END };

/* One worker's counters, in pages shared with the parent. */
struct wstats {
	uint64_t opened, opened_ramp, reconnects, disconnects, rooms_created;
	uint64_t games_over, moves_sent, moves_acked, moves_steady, moves_after_loss;
	uint64_t drops, abandons, leaves, msgs_rx, bytes_rx;
	uint64_t stalls;          /* connections closed for want of an answer (--stall-ms) */
	uint64_t err[E_COUNT];
	uint64_t close_codes[6]; /* 1000, 1001, 1006, 1008, 4001, other */
	int64_t ramp_done_ns;    /* when this worker's last room was seated */
	int open_now;            /* connections established now */
	int seated;              /* rooms with both players seated */
	hist opp, spect;         /* move -> broadcast, steady phase only */
};

/* Parent <-> workers, MAP_SHARED. */
struct shared {
	volatile int phase;
	volatile int loss_seen;  /* set by the parent after it kills the server */
	struct wstats w[MAX_PROCS];
	atk_stats atk;           /* the attackers' process (--attack-*) */
};

/* Command-line options, read-only after parsing. */
static struct opts {
	const char *host, *path, *origin, *views, *pidfile;
	int port, rooms, spectators, procs, sources, games, retry, quiet, allow_internal;
	int server_pid, rss_pct;
	double duration, ramp, think_ms, rate, drop_pct, abandon_pct, reconnect_ms;
	double warmup, settle, stall_ms;
	int attack[ATK_KINDS], attack_sources;
	double attack_pause_ms;
} o = {
	.host = "127.0.0.1", .path = "/ws", .port = 8080, .rooms = 100, .procs = 1,
	.sources = 1, .duration = 10, .ramp = 2, .think_ms = 1000, .reconnect_ms = 200,
	.rss_pct = -1, .warmup = -1, .settle = 1, .attack_sources = 1, .attack_pause_ms = 500,
};

static struct shared *sh;
/* With attackers: each room slot's id while both players hold it, else "";
 * written by the workers, read by the attackers (MAP_SHARED). */
static char (*room_ids)[40];

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---------------------------------------------------------------- worker */

struct room;

/* One WebSocket of the generator; lives in its room for the whole run. */
typedef struct cli {
	struct lws *wsi;          /* NULL while not connected */
	struct room *r;
	int role;                 /* 0 creator, 1 joiner, 2.. spectators */
	int side;                 /* current seat, or -1 */
	int src;                  /* source address index */
	char token[72];           /* seat token once welcomed */
	uint32_t tgen;            /* invalidates this connection's timers */
	int closing;              /* 1: we close it on purpose */
	int reconnect;            /* after a purposeful close: come back */
	int fresh;                /* welcomed, no state seen since */
	int welcomed;             /* welcomed since the last connect */
	int up;                   /* a connection attempt or connection is alive */
	int estab;                /* it is established */
	int lost;                 /* the last close was not ours */
	unsigned join_gn;         /* the room's acknowledged game/ply when the */
	int join_n;               /* join was sent: the welcome's state may not be older */
	unsigned seen_gn;         /* newest game/ply this connection saw */
	int seen_n;
	unsigned lat_gn;          /* latency already recorded for this ply */
	int lat_n;
	unsigned sched_gn;        /* a move is scheduled for this ply */
	int sched_n;
	unsigned offer_gn;        /* rematch offered/accepted for this game */
	int64_t connect_ns;
	int64_t last_rx_ns;       /* last complete message */
	int64_t await_ns;         /* an action sent then, no message since (--stall-ms) */
	int peer_close;           /* close code the server sent, or 0 */
	char *rx;
	size_t rxlen, rxcap;
	struct qmsg {
		int is_move; /* 1 a move, 2 a join */
		size_t len;
		unsigned char buf[LWS_PRE + MSG_MAX];
	} q[QLEN];
	int qh, qn;
} cli;

/* One room slot: plays games, then (on churn) starts a fresh room. */
typedef struct room {
	int slot;
	char id[72];
	int state;               /* 0 idle, 1 creating, 2 joining, 3 seated */
	unsigned gn;             /* game of the mirror */
	ow_game g;               /* the game as acknowledged so far */
	uint8_t *moves;
	int cap;
	int over;                /* the server says the game ended */
	int counted_over;
	int64_t pend_ns;         /* the last move we sent: when, which ply */
	int pend_n;
	unsigned pend_gn;
	int64_t next_due;        /* pacing for --rate */
	int games;
	int ncli;
	cli c[2 + MAX_SPECT];
} room;

/* Timers: a binary heap; stale entries are skipped by generation. */
enum { T_MOVE, T_CONNECT, T_ROOM, T_STALL };
struct tmr {
	int64_t due;
	cli *c;
	room *r;
	uint32_t gen;
	int what;
};

/* Everything one worker owns, for its life. */
static struct worker {
	int id;
	struct wstats *st;
	struct lws_context *ctx;
	struct ev_loop *loop;     /* epoll through libev: poll() is O(sockets) */
	room *rooms;
	int nrooms, started;
	int64_t t0;
	struct tmr *heap;
	size_t nheap, capheap;
	lws_sorted_usec_list_t tick;
	uint64_t rng;
	int stop;
	char src_addr[256][16];
} w;

static uint64_t rnd(void)
{
	return rng_next(&w.rng);
}

static double rnd01(void)
{
	return rng_01(&w.rng);
}

static void count_err(int e)
{
	w.st->err[e]++;
}

static void heap_push(int64_t due, cli *c, room *r, int what)
{
	size_t i;

	if (w.nheap == w.capheap) {
		size_t cap = w.capheap ? w.capheap * 2 : 4096;
		struct tmr *h = realloc(w.heap, cap * sizeof *h);

		if (!h) {
			fprintf(stderr, "owload: out of memory (timers)\n");
			exit(1);
		}
		w.heap = h;
		w.capheap = cap;
	}
	i = w.nheap++;
	while (i && w.heap[(i - 1) / 2].due > due) {
		w.heap[i] = w.heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w.heap[i] = (struct tmr){due, c, r, c ? c->tgen : 0, what};
}

static struct tmr heap_pop(void)
{
	struct tmr top = w.heap[0], last = w.heap[--w.nheap];
	size_t i = 0;

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= w.nheap)
			break;
		if (k + 1 < w.nheap && w.heap[k + 1].due < w.heap[k].due)
			k++;
		if (w.heap[k].due >= last.due)
			break;
		w.heap[i] = w.heap[k];
		i = k;
	}
	if (w.nheap)
		w.heap[i] = last;
	return top;
}

/* Queues one text message for c and asks for a writeable callback. */
static void send_text(cli *c, int is_move, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void send_text(cli *c, int is_move, const char *fmt, ...)
{
	struct qmsg *m;
	va_list ap;
	int n;

	if (!c->wsi || c->closing)
		return;
	if (c->qn == QLEN) {
		count_err(E_QFULL);
		return;
	}
	m = &c->q[(c->qh + c->qn) % QLEN];
	va_start(ap, fmt);
	n = vsnprintf((char *)m->buf + LWS_PRE, MSG_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= MSG_MAX)
		return;
	m->len = (size_t)n;
	m->is_move = is_move;
	c->qn++;
	lws_callback_on_writable(c->wsi);
}

static const struct lws_protocols protocols[];

/* Opens c's connection: the creator to /ws, the others to /ws?room=<id>. */
static void cli_connect(cli *c)
{
	struct lws_client_connect_info i;
	char path[160];

	memset(&i, 0, sizeof i);
	if (c->role == 0 && !c->token[0])
		snprintf(path, sizeof path, "%s", o.path);
	else
		snprintf(path, sizeof path, "%s?room=%s", o.path, c->r->id);
	c->qh = c->qn = 0;
	c->rxlen = 0;
	c->closing = 0;
	c->fresh = 0;
	c->welcomed = 0;
	c->estab = 0;
	/* a move or offer sent on the old connection may be lost: decide anew */
	c->sched_gn = c->offer_gn = 0;
	c->join_gn = 0; /* set when the join is written; a create has none */
	c->join_n = 0;
	c->up = 1;
	c->peer_close = 0;
	c->last_rx_ns = 0;
	c->await_ns = 0;
	c->tgen++;
	i.context = w.ctx;
	i.address = o.host;
	i.port = o.port;
	i.path = path;
	i.host = o.host;
	i.origin = o.origin;
	i.protocol = "oware.v1";
	i.userdata = c;
	if (o.sources > 1)
		i.iface = w.src_addr[c->src];
	c->connect_ns = now_ns();
	c->wsi = lws_client_connect_via_info(&i);
	if (!c->wsi && c->up) {
		c->up = 0;
		count_err(E_CONNECT);
		if (o.retry)
			heap_push(now_ns() + (int64_t)(o.reconnect_ms * 1e6), c, NULL, T_CONNECT);
	}
}

/* Closes c on purpose; with reconnect, it comes back after a delay. */
static void cli_close(cli *c, int reconnect)
{
	c->tgen++;
	c->reconnect = reconnect;
	if (!c->wsi)
		return;
	c->closing = 1;
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

static void room_start(room *r);

/* Ends the room slot's current room: everyone leaves, a fresh one follows. */
static void room_leave(room *r, int abandoned)
{
	for (int k = 0; k < r->ncli; k++)
		cli_close(&r->c[k], 0);
	if (room_ids)
		room_ids[r->slot][0] = 0;
	if (abandoned)
		w.st->abandons++;
	else
		w.st->leaves++;
	if (r->state == 3 && w.st->seated)
		w.st->seated--;
	r->state = 0;
	heap_push(now_ns() + 200000000, NULL, r, T_ROOM);
}

static void room_start(room *r)
{
	r->id[0] = 0;
	r->state = 1;
	r->gn = 0;
	r->games = 0;
	r->over = r->counted_over = 0;
	r->pend_gn = 0;
	ow_game_start(&r->g);
	for (int k = 0; k < r->ncli; k++) {
		cli *c = &r->c[k];

		c->token[0] = 0;
		c->side = -1;
		c->seen_gn = c->lat_gn = c->sched_gn = c->offer_gn = 0;
		c->seen_n = c->lat_n = c->sched_n = 0;
		c->lost = 0;
		c->reconnect = 0;
	}
	cli_connect(&r->c[0]);
}

static int64_t move_due(room *r, int64_t now)
{
	int64_t due;

	if (o.rate > 0) {
		int64_t iv = (int64_t)((double)o.rooms / o.rate * 1e9);

		if (!r->next_due)
			r->next_due = now + (int64_t)(rnd01() * (double)iv);
		due = r->next_due > now ? r->next_due : now;
		r->next_due = due + iv;
		return due;
	}
	return now + (int64_t)(o.think_ms * (0.5 + rnd01()) * 1e6);
}

/* The timer of a scheduled move fired: play, drop or abandon. */
static void move_fire(cli *c)
{
	room *r = c->r;
	unsigned mask;
	int k, pit;

	if (!c->wsi || !r->state || c->sched_gn != r->gn || c->sched_n != (int)r->g.ply ||
	    r->over || r->g.end || r->g.pos.turn != c->side)
		return;
	if (sh->phase >= PH_DRAIN)
		return;
	if (o.abandon_pct > 0 && rnd01() * 100 < o.abandon_pct) {
		room_leave(r, 1);
		return;
	}
	if (o.drop_pct > 0 && rnd01() * 100 < o.drop_pct) {
		w.st->drops++;
		cli_close(c, 1);
		return;
	}
	mask = ow_legal_mask(&r->g.pos);
	if (!mask)
		return;
	k = (int)(rnd() % (uint64_t)__builtin_popcount(mask));
	while (k--)
		mask &= mask - 1;
	pit = __builtin_ctz(mask);
	send_text(c, 1, "{\"type\":\"move\",\"pit\":\"%c\",\"ply\":%d}", ow_pit_letter(pit),
	          (int)r->g.ply);
}

/* --stall-ms after an action, unless a message came since (a later action
 * has a timer of its own): the connection is stalled (its server paused or
 * the path cut while the socket stays open). Closed and opened again with
 * the token, as after a drop; the move is decided anew. */
static void stall_fire(cli *c, int64_t now)
{
	if (!c->wsi || c->closing || !c->await_ns ||
	    now - c->await_ns < (int64_t)(o.stall_ms * 1e6))
		return;
	w.st->stalls++;
	c->lost = 1;
	c->r->pend_gn = 0;
	cli_close(c, 1);
}

static void room_seated(room *r)
{
	if (r->state == 3)
		return;
	r->state = 3;
	if (room_ids)
		snprintf(room_ids[r->slot], sizeof room_ids[0], "%.39s", r->id);
	w.st->seated++;
	if (w.st->seated == (int)w.nrooms && !w.st->ramp_done_ns)
		w.st->ramp_done_ns = now_ns();
}

/* The string field k of obj into buf (n bytes): buf, or NULL when absent,
 * null or not a plain string. */
static const char *jstr(jval obj, const char *k, char *buf, size_t n)
{
	jval v;

	return js_get(obj, k, &v) || js_str(v, buf, n) < 0 ? NULL : buf;
}

/* The boolean at obj.k1.k2 (k2 may be NULL) is true. */
static int jtrue(jval obj, const char *k1, const char *k2)
{
	jval v;

	return !js_get(obj, k1, &v) && (!k2 || !js_get(v, k2, &v)) && js_true(v);
}

static int side_of(const char *s)
{
	if (!s)
		return -2;
	return !strcmp(s, "south") ? OW_SOUTH : !strcmp(s, "north") ? OW_NORTH : -1;
}

static void on_welcome(cli *c, jval m)
{
	room *r = c->r;
	char idb[72], seatb[16], tokb[72];
	const char *id = jstr(m, "room", idb, sizeof idb), *seat = jstr(m, "seat", seatb, sizeof seatb);
	const char *tok = jstr(m, "token", tokb, sizeof tokb);

	if (!id || !seat) {
		count_err(E_BAD_MSG);
		return;
	}
	if (c->lost || c->reconnect) {
		w.st->reconnects++;
		c->lost = c->reconnect = 0;
	}
	c->side = side_of(seat);
	c->fresh = 1;
	c->welcomed = 1;
	if (tok)
		snprintf(c->token, sizeof c->token, "%s", tok);
	if (c->role == 0 && !r->id[0]) {
		snprintf(r->id, sizeof r->id, "%s", id);
		w.st->rooms_created++;
		r->state = 2;
		cli_connect(&r->c[1]);
	} else if (c->role == 1 && r->state == 2) {
		if (r->ncli == 2)
			room_seated(r);
		for (int k = 2; k < r->ncli; k++)
			cli_connect(&r->c[k]);
	} else if (c->role >= 2 && r->state == 2) {
		int all = 1;

		for (int k = 2; k < r->ncli; k++)
			if (!r->c[k].welcomed)
				all = 0;
		if (all)
			room_seated(r);
	}
}

/* Applies the state's new moves to the room's mirror; checks each with the
 * engine. Returns 0, or -1 on a mismatch (counted). */
static int mirror(room *r, jval moves, int n)
{
	const char *it = NULL;
	jval v;

	for (int p = 0; p < r->g.ply; p++)
		js_next(moves, &it, &v);
	for (int p = r->g.ply; p < n; p++) {
		char s[2];
		int pit = js_next(moves, &it, &v) > 0 && js_str(v, s, sizeof s) == 1 ? ow_pit_parse(s[0]) : -1;

		if (pit < 0 || ow_game_play(&r->g, pit, NULL)) {
			count_err(E_MISMATCH);
			return -1;
		}
		if (p >= r->cap) {
			int cap = r->cap ? r->cap * 2 : 256;
			uint8_t *mv = realloc(r->moves, (size_t)cap);

			if (!mv) {
				fprintf(stderr, "owload: out of memory\n");
				exit(1);
			}
			r->moves = mv;
			r->cap = cap;
		}
		r->moves[p] = (uint8_t)pit;
		w.st->moves_acked++;
		if (sh->phase == PH_STEADY)
			w.st->moves_steady++;
		if (sh->loss_seen)
			w.st->moves_after_loss++;
	}
	return 0;
}

static void on_state(cli *c, jval m)
{
	room *r = c->r;
	jval game, moves, v;
	long long gnv = 0;
	unsigned gn;
	int n, over, turn, both;
	char turnb[8];
	int64_t now = now_ns();

	if (js_get(m, "game", &game) || *game.p != '{' || js_get(m, "moves", &moves) ||
	    (n = js_count(moves)) < 0 || js_get(m, "seats", &v) || *v.p != '{' ||
	    js_get(m, "game_number", &v) || js_int(v, &gnv) || gnv <= 0 || gnv > 0xffffffffLL) {
		count_err(E_BAD_MSG);
		return;
	}
	gn = (unsigned)gnv;
	over = jtrue(game, "over", NULL);
	turn = side_of(jstr(game, "turn", turnb, sizeof turnb));
	js_get(m, "seats", &v);
	both = jtrue(v, "south", "taken") && jtrue(v, "north", "taken");

	/* No acknowledged move may disappear: per connection, and for a
	 * connection just (re)joined, against everything the room has seen. */
	if (gn < c->seen_gn || (gn == c->seen_gn && n < c->seen_n) ||
	    (c->fresh && (gn < c->join_gn || (gn == c->join_gn && n < c->join_n)))) {
		count_err(E_LOST_ACK);
		if (!o.quiet)
			fprintf(stderr, "owload: room %s: state game %u with %d moves after "
			        "game %u with %d moves was acknowledged\n", r->id, gn, n,
			        c->fresh ? c->join_gn : c->seen_gn, c->fresh ? c->join_n : c->seen_n);
	}
	c->fresh = 0;
	c->seen_gn = gn;
	c->seen_n = n;

	if (gn > r->gn) {
		r->gn = gn;
		ow_game_start(&r->g);
		r->over = r->counted_over = 0;
		r->next_due = 0;
	}
	if (gn == r->gn && n > (int)r->g.ply && mirror(r, moves, n) < 0)
		return;
	if (gn != r->gn || n != (int)r->g.ply)
		return; /* an older state of a lagging connection */

	if (r->pend_gn == gn && n == r->pend_n + 1 && (c->lat_gn != gn || c->lat_n < n)) {
		int mover = r->pend_n & 1;

		c->lat_gn = gn;
		c->lat_n = n;
		if (sh->phase == PH_STEADY) {
			uint64_t us = (uint64_t)(now - r->pend_ns) / 1000;

			if (c->side < 0)
				hist_add(&w.st->spect, us);
			else if (c->side != mover)
				hist_add(&w.st->opp, us);
		}
	}
	if (r->g.end && !over) {
		count_err(E_MISMATCH); /* the engine ended the game, the server did not */
		return;
	}
	r->over = over;
	if (over && !r->counted_over) {
		r->counted_over = 1;
		r->games++;
		w.st->games_over++;
		if (o.games && r->games >= o.games && sh->phase < PH_DRAIN) {
			room_leave(r, 0);
			return;
		}
	}
	if (c->side < 0 || !both || !r->state)
		return;
	if (!over && turn == c->side && turn == r->g.pos.turn &&
	    !(c->sched_gn == gn && c->sched_n == n)) {
		c->sched_gn = gn;
		c->sched_n = n;
		heap_push(move_due(r, now), c, NULL, T_MOVE);
	} else if (over && c->offer_gn != gn && sh->phase < PH_DRAIN) {
		char ob[8];
		int offer = side_of(jstr(m, "rematch_offer", ob, sizeof ob));

		if (offer == -2 && c->side == OW_SOUTH) {
			c->offer_gn = gn;
			send_text(c, 0, "{\"type\":\"rematch\",\"action\":\"offer\"}");
		} else if (offer == !c->side) {
			c->offer_gn = gn;
			send_text(c, 0, "{\"type\":\"rematch\",\"action\":\"accept\"}");
		}
	}
}

static void on_error(cli *c, jval m)
{
	char codeb[32], msgb[256];
	const char *code = jstr(m, "code", codeb, sizeof codeb);
	const char *msg = jstr(m, "message", msgb, sizeof msgb);
	int e = PROTO_E_NONE;

	for (int k = PROTO_E_NONE + 1; code && k < PROTO_E_COUNT; k++)
		if (!strcmp(code, proto_err_code(k)))
			e = k;
	count_err(e);
	if (!o.quiet && w.st->err[e] <= 3 && !(o.allow_internal && e == PROTO_E_INTERNAL))
		fprintf(stderr, "owload: room %s role %d: error %s: %s\n", c->r->id, c->role,
		        code ? code : "?", msg ? msg : "");
	/* A database stopped on purpose: the move (or join) was refused and
	 * nothing changed; come back with the token and carry on. */
	if (o.allow_internal && e == PROTO_E_INTERNAL && c->token[0]) {
		cli_close(c, 1);
		return;
	}
	/* A room that could not be made is tried again later. */
	if (c->role == 0 && !c->r->id[0])
		room_leave(c->r, 0);
}

static void on_message(cli *c)
{
	jval m;
	char typeb[16];
	const char *type = NULL;

	w.st->msgs_rx++;
	w.st->bytes_rx += c->rxlen;
	if (!js_parse(c->rx, c->rxlen, &m))
		type = jstr(m, "type", typeb, sizeof typeb);
	if (!type)
		count_err(E_BAD_MSG);
	else if (!strcmp(type, "state"))
		on_state(c, m);
	else if (!strcmp(type, "welcome"))
		on_welcome(c, m);
	else if (!strcmp(type, "error"))
		on_error(c, m);
	else
		count_err(E_BAD_MSG);
}

static void on_closed(cli *c, int failed)
{
	room *r = c->r;

	if (!c->up)
		return;
	c->up = 0;
	if (c->estab)
		w.st->open_now--;
	c->estab = 0;
	c->wsi = NULL;
	c->qn = 0;
	if (c->closing) {
		c->closing = 0;
		if (c->reconnect)
			heap_push(now_ns() + (int64_t)(o.reconnect_ms * (0.5 + rnd01()) * 1e6), c, NULL,
			          T_CONNECT);
		return;
	}
	if (c->peer_close == 4002 && !w.stop && (c->token[0] || c->role >= 2)) {
		/* "moved" (several servers): back at once, through the routing,
		 * with the token; not a loss. */
		c->lost = 1;
		r->pend_gn = 0;
		heap_push(now_ns() + (int64_t)(20e6 * rnd01()), c, NULL, T_CONNECT);
		return;
	}
	w.st->disconnects++;
	if (!o.retry || w.stop) {
		int64_t now = now_ns();

		count_err(failed ? E_CONNECT : E_CLOSED);
		if (w.st->err[failed ? E_CONNECT : E_CLOSED] <= 5)
			fprintf(stderr, "owload: room %s role %d side %d: %s (close code %d, %s, "
			        "%.1f s after connecting, %.1f s after the last message)\n",
			        r->id[0] ? r->id : "-", c->role, c->side,
			        failed ? "connection failed" : "closed by the server", c->peer_close,
			        c->welcomed ? "welcomed" : "not welcomed",
			        (double)(now - c->connect_ns) / 1e9,
			        c->last_rx_ns ? (double)(now - c->last_rx_ns) / 1e9 : -1.0);
		return;
	}
	if (!c->token[0] && c->role < 2 && !(c->role == 1 && r->id[0])) {
		/* never seated: start this room over */
		room_leave(r, 0);
		return;
	}
	c->lost = 1;
	r->pend_gn = 0;
	heap_push(now_ns() + (int64_t)(o.reconnect_ms * (0.5 + rnd01()) * 1e6), c, NULL,
	          T_CONNECT);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
	cli *c = user;

	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		if (!c)
			break;
		c->wsi = wsi;
		c->estab = 1;
		w.st->opened++;
		w.st->open_now++;
		if (sh->phase <= PH_RAMP)
			w.st->opened_ramp++;
		if (c->token[0])
			send_text(c, 2, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", c->r->id,
			          c->token);
		else if (c->role == 0)
			send_text(c, 0, "{\"type\":\"create\",\"side\":\"south\"}");
		else
			send_text(c, 2, "{\"type\":\"join\",\"room\":\"%s\"}", c->r->id);
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		if (!c || c->closing)
			break;
		if (c->rxlen + len > RX_MAX) {
			count_err(E_BAD_MSG);
			return -1;
		}
		if (c->rxlen + len > c->rxcap) {
			size_t cap = c->rxcap ? c->rxcap : 1024;
			char *p;

			while (cap < c->rxlen + len)
				cap *= 2;
			p = realloc(c->rx, cap);
			if (!p)
				return -1;
			c->rx = p;
			c->rxcap = cap;
		}
		memcpy(c->rx + c->rxlen, in, len);
		c->rxlen += len;
		if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
			c->last_rx_ns = now_ns();
			c->await_ns = 0;
			on_message(c);
			c->rxlen = 0;
		}
		break;
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		if (!c || !c->qn)
			break;
		{
			struct qmsg *m = &c->q[c->qh];

			if (lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
				return -1;
			if (m->is_move == 2) {
				c->join_gn = c->r->gn;
				c->join_n = (int)c->r->g.ply;
			} else if (m->is_move) {
				c->r->pend_ns = now_ns();
				c->r->pend_n = (int)c->r->g.ply;
				c->r->pend_gn = c->r->gn;
				w.st->moves_sent++;
			}
			/* A move or rematch always gets a message back (a state or
			 * an error): none within --stall-ms is a stalled connection. */
			if (o.stall_ms > 0 && m->is_move != 2 && c->welcomed && !c->await_ns) {
				c->await_ns = now_ns();
				heap_push(c->await_ns + (int64_t)(o.stall_ms * 1e6), c, NULL, T_STALL);
			}
			c->qh = (c->qh + 1) % QLEN;
			if (--c->qn)
				lws_callback_on_writable(wsi);
		}
		break;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (c && len >= 2) {
			int code = ((const unsigned char *)in)[0] << 8 | ((const unsigned char *)in)[1];
			int k = code == 1000 ? 0 : code == 1001 ? 1 : code == 1006 ? 2 :
			        code == 1008 ? 3 : code == 4001 ? 4 : 5;

			w.st->close_codes[k]++;
			c->peer_close = code;
		}
		break;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		if (c) {
			if (!o.quiet && !o.retry && w.st->err[E_CONNECT] < 3)
				fprintf(stderr, "owload: connect: %s\n", in ? (const char *)in : "?");
			on_closed(c, 1);
		}
		break;
	case LWS_CALLBACK_CLIENT_CLOSED:
	case LWS_CALLBACK_WSI_DESTROY: /* whatever the path, once (c->up) */
		if (c)
			on_closed(c, 0);
		break;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{"oware.v1", callback, 0, 0, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Dumps each live room's view: id, game number, over flag, moves. */
static void dump_views(void)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s.%d", o.views, w.id);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "owload: %s: %s\n", path, strerror(errno));
		return;
	}
	for (int i = 0; i < w.nrooms; i++) {
		room *r = &w.rooms[i];

		if (r->state != 3 || !r->gn)
			continue;
		fprintf(f, "%s %u %d ", r->id, r->gn, r->over);
		for (int p = 0; p < (int)r->g.ply; p++)
			fputc(ow_pit_letter(r->moves[p]), f);
		fputs(r->g.ply ? "\n" : "-\n", f);
	}
	fclose(f);
}

static void tick(lws_sorted_usec_list_t *sul)
{
	int64_t now = now_ns();
	int phase = sh->phase;

	(void)sul;
	/* ramp: rooms start spread evenly over --ramp seconds */
	if (phase >= PH_RAMP && phase < PH_DRAIN && w.started < w.nrooms) {
		double f = o.ramp > 0 ? (double)(now - w.t0) / (o.ramp * 1e9) : 1;
		int want = f >= 1 ? w.nrooms : (int)(f * w.nrooms);

		while (w.started < want)
			room_start(&w.rooms[w.started++]);
	}
	while (w.nheap && w.heap[0].due <= now) {
		struct tmr t = heap_pop();

		if (t.what == T_ROOM) {
			if (t.r->state == 0 && sh->phase < PH_DRAIN)
				room_start(t.r);
			continue;
		}
		if (t.gen != t.c->tgen)
			continue;
		if (t.what == T_MOVE)
			move_fire(t.c);
		else if (t.what == T_STALL)
			stall_fire(t.c, now);
		else if (t.what == T_CONNECT && !t.c->wsi && sh->phase < PH_END)
			cli_connect(t.c);
	}
	if (phase == PH_END) {
		if (o.views)
			dump_views();
		w.stop = 1;
		for (int i = 0; i < w.nrooms; i++)
			for (int k = 0; k < w.rooms[i].ncli; k++)
				cli_close(&w.rooms[i].c[k], 0);
		return;
	}
	lws_sul_schedule(w.ctx, 0, &w.tick, tick, 1000);
}

/* Keeps lws_service() returning while the worker shuts down. */
static void wake(lws_sorted_usec_list_t *sul)
{
	lws_sul_schedule(w.ctx, 0, sul, wake, 10000);
}

static int worker_main(int id, int first, int nrooms)
{
	struct lws_context_creation_info info;
	struct rlimit rl;
	void *foreign[1];
	int64_t end;

	w.id = id;
	w.st = &sh->w[id];
	w.nrooms = nrooms;
	w.rng = (uint64_t)getpid() * 0x2545f4914f6cdd1dull ^ (uint64_t)now_ns();
	for (int s = 0; s < o.sources && s < 256; s++)
		snprintf(w.src_addr[s], sizeof w.src_addr[s], "127.0.0.%d", s + 1);
	w.rooms = calloc((size_t)nrooms, sizeof *w.rooms);
	if (!w.rooms) {
		fprintf(stderr, "owload: out of memory (%d rooms)\n", nrooms);
		return 1;
	}
	for (int i = 0; i < nrooms; i++) {
		room *r = &w.rooms[i];

		r->slot = first + i;
		r->ncli = 2 + o.spectators;
		for (int k = 0; k < r->ncli; k++) {
			r->c[k].r = r;
			r->c[k].role = k;
			r->c[k].side = -1;
			r->c[k].src = (int)(((unsigned)(first + i) * (unsigned)r->ncli + (unsigned)k) %
			                    (unsigned)o.sources);
		}
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	w.loop = ev_loop_new(EVBACKEND_EPOLL);
	if (!w.loop) {
		fprintf(stderr, "owload: ev_loop_new failed\n");
		return 1;
	}
	foreign[0] = w.loop;
	memset(&info, 0, sizeof info);
	info.options = LWS_SERVER_OPTION_LIBEV;
	info.foreign_loops = foreign;
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.fd_limit_per_thread = (unsigned)rl.rlim_cur;
	info.timeout_secs = 30;
	info.connect_timeout_secs = 20;
	lws_set_log_level(LLL_ERR, NULL);
	w.ctx = lws_create_context(&info);
	if (!w.ctx) {
		fprintf(stderr, "owload: lws_create_context failed\n");
		return 1;
	}
	while (sh->phase < PH_RAMP)
		usleep(1000);
	w.t0 = now_ns();
	lws_sul_schedule(w.ctx, 0, &w.tick, tick, 1000);
	while (!w.stop)
		ev_run(w.loop, EVRUN_ONCE);
	/* let the purposeful closes go out */
	end = now_ns() + 500000000;
	wake(&w.tick);
	while (now_ns() < end && w.st->open_now > 0)
		ev_run(w.loop, EVRUN_ONCE);
	lws_context_destroy(w.ctx);
	ev_loop_destroy(w.loop);
	return 0;
}

/* ---------------------------------------------------------------- parent */

struct pstat {
	double cpu_s;   /* user + system seconds */
	long rss_kib;
};

static int read_pstat(int pid, struct pstat *p)
{
	char path[64], buf[4096], *s;
	unsigned long ut, st;
	FILE *f;
	size_t n;

	p->cpu_s = 0;
	p->rss_kib = 0;
	if (pid <= 0)
		return -1;
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	s = strrchr(buf, ')');
	if (!s || sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	p->cpu_s = (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof buf, f))
		if (!strncmp(buf, "VmRSS:", 6))
			p->rss_kib = strtol(buf + 6, NULL, 10);
	fclose(f);
	return 0;
}

static int server_pid(void)
{
	FILE *f;
	int pid = 0;

	if (o.server_pid)
		return o.server_pid;
	if (!o.pidfile)
		return 0;
	f = fopen(o.pidfile, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

static void sum_stats(struct wstats *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < o.procs; i++) {
		const struct wstats *s = &sh->w[i];

		t->opened += s->opened;
		t->opened_ramp += s->opened_ramp;
		t->reconnects += s->reconnects;
		t->disconnects += s->disconnects;
		t->rooms_created += s->rooms_created;
		t->games_over += s->games_over;
		t->moves_sent += s->moves_sent;
		t->moves_acked += s->moves_acked;
		t->moves_steady += s->moves_steady;
		t->moves_after_loss += s->moves_after_loss;
		t->drops += s->drops;
		t->stalls += s->stalls;
		t->abandons += s->abandons;
		t->leaves += s->leaves;
		t->msgs_rx += s->msgs_rx;
		t->bytes_rx += s->bytes_rx;
		for (int e = 0; e < E_COUNT; e++)
			t->err[e] += s->err[e];
		for (int k = 0; k < 6; k++)
			t->close_codes[k] += s->close_codes[k];
		if (s->ramp_done_ns > t->ramp_done_ns)
			t->ramp_done_ns = s->ramp_done_ns;
		t->open_now += s->open_now;
		t->seated += s->seated;
		hist_merge(&t->opp, &s->opp);
		hist_merge(&t->spect, &s->spect);
	}
}

static int attack_done(void)
{
	return sh->phase >= PH_DRAIN;
}

static int attack_steady(void)
{
	return sh->phase >= PH_STEADY;
}

/* The attackers' process: from the steady phase to the drain (from the
 * ramp with --idle, whose connections open then). Exit status 0, or 1 when
 * they could not start. */
static int attack_main(void)
{
	atk_config c;

	memset(&c, 0, sizeof c);
	c.host = o.host;
	c.port = o.port;
	c.path = o.path;
	memcpy(c.n, o.attack, sizeof c.n);
	c.first_src = o.sources + 1;
	c.nsrc = o.attack_sources;
	c.pause_ms = o.attack_pause_ms;
	c.ids = (const char (*)[40])room_ids;
	c.nids = o.rooms;
	c.done = attack_done;
	c.steady = attack_steady;
	while (sh->phase < (o.attack[ATK_IDLE] ? PH_RAMP : PH_STEADY))
		usleep(10000);
	return atk_run(&c, &sh->atk) < 0;
}

/* The attackers' rows of the table: what they did and how the server
 * closed them. */
static void attack_rows(void)
{
	static const char *const names[ATK_KINDS] = {"ping flood", "spectator churn",
	                                             "slow readers", "chat flood", "body trickle",
	                                             "history pull", "silent sockets",
	                                             "idle connections"};

	for (int k = 0; k < ATK_KINDS; k++) {
		const uint64_t *v = sh->atk.v[k];
		char label[64];

		if (!o.attack[k])
			continue;
		snprintf(label, sizeof label, "%s: %s x%d", k == ATK_IDLE ? "load" : "attack",
		         names[k], o.attack[k]);
		printf("%-34s %" PRIu64 " connections, %" PRIu64 " failed", label, v[AS_UPGRADED],
		       v[AS_FAILED]);
		if (k == ATK_PING)
			printf(", %.1f MiB of pings sent\n", (double)v[AS_BYTES_TX] / (1 << 20));
		else if (k == ATK_IDLE)
			printf(", %.1f KiB read (pings)\n", (double)v[AS_BYTES_RX] / 1024);
		else if (k == ATK_SILENT) {
			printf("\n%-34s cut unanswered=%" PRIu64 ", still open after 30 s=%" PRIu64 "\n",
			       "  sockets", v[AS_CUT], v[AS_HELD]);
			continue;
		} else if (k == ATK_TRICKLE) {
			printf("; %" PRIu64 " bytes trickled\n", v[AS_BYTES_TX]);
			printf("%-34s cut unanswered=%" PRIu64 ", answered=%" PRIu64 ", still open after"
			       " 30 s=%" PRIu64 "\n", "  requests", v[AS_CUT], v[AS_ANSWERED], v[AS_HELD]);
			continue;
		} else if (k == ATK_CHAT || k == ATK_HISTORY)
			printf("; answers: %" PRIu64 " welcome, %" PRIu64 " rate_limited, %" PRIu64
			       " other errors; %" PRIu64 " %s, %.1f MiB read\n", v[AS_WELCOMED],
			       v[AS_RATE_LIMITED], v[AS_OTHER_ERR], v[AS_CHAT_OK],
			       k == ATK_CHAT ? "lines sent back" : "histories",
			       (double)v[AS_BYTES_RX] / (1 << 20));
		else
			printf("; answers: %" PRIu64 " welcome, %" PRIu64 " rate_limited, %" PRIu64
			       " other errors\n", v[AS_WELCOMED], v[AS_RATE_LIMITED], v[AS_OTHER_ERR]);
		printf("%-34s 1008 flood=%" PRIu64 " slow=%" PRIu64 " idle=%" PRIu64 " other=%" PRIu64
		       ", other codes=%" PRIu64 ", no close frame=%" PRIu64 "\n", "  closed by the server",
		       v[AS_FLOOD], v[AS_SLOW], v[AS_IDLE], v[AS_1008], v[AS_OTHER_CODE],
		       v[AS_NO_CLOSE]);
	}
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(void)
{
	printf("usage: owload [options]\n"
	       "Load generator for owared (oware.v1). Options:\n"
	       "  --host A / --port N / --path P  server (127.0.0.1, 8080, /ws)\n"
	       "  --origin O              Origin header to send (default: none)\n"
	       "  --rooms N               rooms held at once (100)\n"
	       "  --spectators K          spectators per room (0, at most %d)\n"
	       "  --duration S            seconds of steady load after the ramp (10)\n"
	       "  --ramp S                seconds over which rooms are opened (2)\n"
	       "  --think MS              mean think time before a move (1000; 0.5x-1.5x)\n"
	       "  --rate R                total moves per second, paced per room (overrides --think)\n"
	       "  --procs P               worker processes (1, at most %d)\n"
	       "  --sources N             spread sockets over 127.0.0.1..127.0.0.N (1)\n"
	       "  --games G               games per room before it is left (0: rematch forever)\n"
	       "  --drop PCT              chance per move that the mover drops and reconnects\n"
	       "  --abandon PCT           chance per move that both players leave for good\n"
	       "  --reconnect-ms MS       delay before reconnecting (200)\n"
	       "  --retry                 reconnect (with tokens) after any loss of connection\n"
	       "  --allow-internal        `internal` answers are expected (a database stopped on\n"
	       "                          purpose): not errors; the client reconnects with its token\n"
	       "  --stall-ms MS           a move or rematch that gets no message back within MS:\n"
	       "                          the connection is stalled, closed and opened again with\n"
	       "                          the token (0: off, the default)\n"
	       "  --server-pid PID        server to read /proc of (or --pidfile F)\n"
	       "  --rss-check PCT         fail if server RSS grows more than PCT after --warmup S\n"
	       "  --views FILE            write each room's last acknowledged game at the end\n"
	       "  --kill-at S             (crash test) SIGKILL the server S seconds into the steady\n"
	       "                          phase; the caller restarts it (see tests/load)\n"
	       "  --quiet                 no per-error lines\n"
	       "  --idle N                N more WebSocket connections, opened during the ramp\n"
	       "                          from addresses of their own: they join no room, send\n"
	       "                          nothing and answer the server's pings\n"
	       "Attackers, from the steady phase on, apart from the players (bench/README.md):\n"
	       "  --attack-pings N        connections that join as spectators, then send pings\n"
	       "                          as fast as the socket takes them and never read\n"
	       "  --attack-churn N        connections that join a room as spectators and close\n"
	       "                          as soon as they are answered, again and again\n"
	       "  --attack-slow N         spectators that read for 5 ms every 1-3 s (one pause in\n"
	       "                          ten lasts 60 s)\n"
	       "  --attack-chat N         players of rooms of their own that send 10 chat lines a\n"
	       "                          second and reconnect to their seat every 2 s\n"
	       "  --attack-trickle N      POST /api/rooms whose 100-byte body comes a byte a\n"
	       "                          second\n"
	       "  --attack-silent N       connections that send nothing at all (a header buffer\n"
	       "                          held), again as soon as the server closes them\n"
	       "  --attack-history N      spectators of the chat flooders' rooms that read the\n"
	       "                          chat history and close, again and again\n"
	       "  --attack-pause MS       before an attacker reconnects after a close or a\n"
	       "                          refusal (500)\n"
	       "  --attack-sources N      source addresses per kind of attacker, after the\n"
	       "                          players' (1)\n",
	       MAX_SPECT, MAX_PROCS);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"host", 1, 0, 'H'}, {"port", 1, 0, 'p'}, {"path", 1, 0, 'P'},
		{"origin", 1, 0, 'O'}, {"rooms", 1, 0, 'r'}, {"spectators", 1, 0, 's'},
		{"duration", 1, 0, 'd'}, {"ramp", 1, 0, 'R'}, {"think", 1, 0, 't'},
		{"rate", 1, 0, 'm'}, {"procs", 1, 0, 'j'}, {"sources", 1, 0, 'S'},
		{"games", 1, 0, 'g'}, {"drop", 1, 0, 'x'}, {"abandon", 1, 0, 'a'},
		{"reconnect-ms", 1, 0, 'c'}, {"retry", 0, 0, 'y'}, {"allow-internal", 0, 0, 'I'}, {"stall-ms", 1, 0, 'T'}, {"server-pid", 1, 0, 'i'},
		{"pidfile", 1, 0, 'f'}, {"rss-check", 1, 0, 'k'}, {"warmup", 1, 0, 'w'},
		{"views", 1, 0, 'v'}, {"kill-at", 1, 0, 'K'}, {"quiet", 0, 0, 'q'},
		{"attack-pings", 1, 0, 'A'}, {"attack-churn", 1, 0, 'C'}, {"attack-slow", 1, 0, 'W'},
		{"attack-pause", 1, 0, 'Z'}, {"attack-sources", 1, 0, 'X'},
		{"attack-chat", 1, 0, 'B'}, {"attack-trickle", 1, 0, 'L'}, {"attack-history", 1, 0, 'Y'},
		{"idle", 1, 0, 'D'}, {"attack-silent", 1, 0, 'E'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0},
	};
	struct wstats t;
	struct pstat idle, loaded, cpu0, cpu1, last, warm = {0, 0};
	struct rlimit rl;
	pid_t kids[MAX_PROCS], apid = 0;
	double kill_at = -1, steady_s, ramp_s;
	int64_t t0, t_steady, t_end, t_next;
	long rss_max = 0;
	int opt, bad = 0, killed = 0, fail = 0, conns, attacking;
	double gen_cpu = 0, atk_cpu = 0;

	while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (opt) {
		case 'H': o.host = optarg; break;
		case 'p': o.port = atoi(optarg); break;
		case 'P': o.path = optarg; break;
		case 'O': o.origin = optarg; break;
		case 'r': o.rooms = atoi(optarg); break;
		case 's': o.spectators = atoi(optarg); break;
		case 'd': o.duration = atof(optarg); break;
		case 'R': o.ramp = atof(optarg); break;
		case 't': o.think_ms = atof(optarg); break;
		case 'm': o.rate = atof(optarg); break;
		case 'j': o.procs = atoi(optarg); break;
		case 'S': o.sources = atoi(optarg); break;
		case 'g': o.games = atoi(optarg); break;
		case 'x': o.drop_pct = atof(optarg); break;
		case 'a': o.abandon_pct = atof(optarg); break;
		case 'c': o.reconnect_ms = atof(optarg); break;
		case 'y': o.retry = 1; break;
		case 'I': o.allow_internal = 1; break;
		case 'T': o.stall_ms = atof(optarg); break;
		case 'i': o.server_pid = atoi(optarg); break;
		case 'f': o.pidfile = optarg; break;
		case 'k': o.rss_pct = atoi(optarg); break;
		case 'w': o.warmup = atof(optarg); break;
		case 'v': o.views = optarg; break;
		case 'K': kill_at = atof(optarg); break;
		case 'q': o.quiet = 1; break;
		case 'A': o.attack[ATK_PING] = atoi(optarg); break;
		case 'C': o.attack[ATK_CHURN] = atoi(optarg); break;
		case 'W': o.attack[ATK_SLOW] = atoi(optarg); break;
		case 'B': o.attack[ATK_CHAT] = atoi(optarg); break;
		case 'L': o.attack[ATK_TRICKLE] = atoi(optarg); break;
		case 'Y': o.attack[ATK_HISTORY] = atoi(optarg); break;
		case 'D': o.attack[ATK_IDLE] = atoi(optarg); break;
		case 'E': o.attack[ATK_SILENT] = atoi(optarg); break;
		case 'Z': o.attack_pause_ms = atof(optarg); break;
		case 'X': o.attack_sources = atoi(optarg); break;
		case 'h': usage(); return 0;
		default: bad = 1;
		}
	}
	if (bad || optind < argc || o.rooms < 1 || o.procs < 1 || o.procs > MAX_PROCS ||
	    o.spectators < 0 || o.spectators > MAX_SPECT || o.sources < 1 || o.sources > 254 ||
	    o.duration < 0 || o.ramp < 0 || o.port < 1 || o.port > 65535 ||
	    o.attack[ATK_PING] < 0 || o.attack[ATK_CHURN] < 0 || o.attack[ATK_SLOW] < 0 ||
	    o.attack[ATK_CHAT] < 0 || o.attack[ATK_TRICKLE] < 0 || o.attack[ATK_HISTORY] < 0 ||
	    o.attack[ATK_IDLE] < 0 || o.attack[ATK_SILENT] < 0 ||
	    o.attack_sources < 1 || o.attack_pause_ms < 0 || !(o.stall_ms >= 0)) {
		fprintf(stderr, "owload: bad arguments (see --help)\n");
		return 2;
	}
	if (o.procs > o.rooms)
		o.procs = o.rooms;
	attacking = 0;
	for (int k = 0; k < ATK_KINDS; k++)
		attacking |= o.attack[k] > 0;
	if (attacking && o.sources + ATK_KINDS * o.attack_sources > 254) {
		fprintf(stderr, "owload: --sources + %d x --attack-sources exceed 254 addresses\n",
		        ATK_KINDS);
		return 2;
	}
	/* Every socket needs a descriptor: take the hard limit. */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		if ((double)o.rooms * (2 + o.spectators) / o.procs + 64 > (double)rl.rlim_cur)
			fprintf(stderr, "owload: warning: %d sockets per process exceed the descriptor "
			        "limit %lu: use more --procs\n",
			        o.rooms * (2 + o.spectators) / o.procs, (unsigned long)rl.rlim_cur);
	}
	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("owload: mmap");
		return 1;
	}
	if (attacking) {
		room_ids = mmap(NULL, (size_t)o.rooms * sizeof room_ids[0], PROT_READ | PROT_WRITE,
		                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (room_ids == MAP_FAILED) {
			perror("owload: mmap");
			return 1;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	read_pstat(server_pid(), &idle);
	for (int i = 0, first = 0; i < o.procs; i++) {
		int n = o.rooms / o.procs + (i < o.rooms % o.procs);

		kids[i] = fork();
		if (kids[i] < 0) {
			perror("owload: fork");
			return 1;
		}
		if (kids[i] == 0) {
			signal(SIGINT, SIG_IGN);
			signal(SIGTERM, SIG_IGN);
			_exit(worker_main(i, first, n));
		}
		first += n;
	}
	if (attacking) {
		apid = fork();
		if (apid < 0) {
			perror("owload: fork");
			return 1;
		}
		if (apid == 0) {
			signal(SIGINT, SIG_IGN);
			signal(SIGTERM, SIG_IGN);
			_exit(attack_main());
		}
	}
	usleep(100000);
	t0 = now_ns();
	sh->phase = PH_RAMP;
	/* Ramp: until every room is seated and every idle connection open (or
	 * twice the ramp plus 10 s, and a second per 1,000 idle ones). */
	for (;;) {
		usleep(20000);
		sum_stats(&t);
		if ((t.seated >= o.rooms &&
		     sh->atk.v[ATK_IDLE][AS_UPGRADED] >= (uint64_t)o.attack[ATK_IDLE]) || interrupted ||
		    now_ns() - t0 > (int64_t)((2 * o.ramp + 10 + o.attack[ATK_IDLE] / 1000.0) * 1e9))
			break;
	}
	if (sh->atk.v[ATK_IDLE][AS_UPGRADED] < (uint64_t)o.attack[ATK_IDLE])
		fprintf(stderr, "owload: only %" PRIu64 " of %d idle connections open after the ramp\n",
		        sh->atk.v[ATK_IDLE][AS_UPGRADED], o.attack[ATK_IDLE]);
	if (t.seated < o.rooms)
		fprintf(stderr, "owload: only %d of %d rooms seated after the ramp\n", t.seated,
		        o.rooms);
	ramp_s = (double)((t.ramp_done_ns ? t.ramp_done_ns : now_ns()) - t0) / 1e9;
	conns = t.open_now + (int)sh->atk.v[ATK_IDLE][AS_UPGRADED];
	/* settle so the server's allocations after the last join are counted */
	usleep((useconds_t)(o.settle * 1e6));
	read_pstat(server_pid(), &loaded);
	cpu0 = loaded;
	t_steady = now_ns();
	sh->phase = PH_STEADY;
	t_end = t_steady + (int64_t)(o.duration * 1e9);
	t_next = t_steady + 1000000000;
	last = loaded;
	while (!interrupted && now_ns() < t_end) {
		usleep(10000);
		if (now_ns() < t_next)
			continue;
		t_next += 1000000000;
		if (read_pstat(server_pid(), &last) == 0) {
			if (o.warmup >= 0 && !warm.rss_kib &&
			    now_ns() - t_steady >= (int64_t)(o.warmup * 1e9))
				warm = last;
			if (warm.rss_kib && last.rss_kib > rss_max)
				rss_max = last.rss_kib;
		}
		if (kill_at >= 0 && !killed && now_ns() - t_steady >= (int64_t)(kill_at * 1e9)) {
			int pid = server_pid();

			killed = 1;
			if (pid > 0 && kill(pid, SIGKILL) == 0) {
				sh->loss_seen = 1;
				fprintf(stderr, "owload: killed server %d (SIGKILL) at %.1f s\n", pid,
				        kill_at);
			}
		}
		if (!o.quiet && isatty(2)) {
			sum_stats(&t);
			fprintf(stderr, "owload: %4.0f s  open %d  moves %" PRIu64 "  errors %" PRIu64
			        "\r", (double)(now_ns() - t_steady) / 1e9, t.open_now, t.moves_steady,
			        t.err[E_LOST_ACK] + t.err[E_MISMATCH]);
		}
	}
	if (read_pstat(server_pid(), &cpu1) < 0 && server_pid() && !killed) {
		fprintf(stderr, "owload: the server (pid %d) is gone\n", server_pid());
		fail = 1;
	}
	steady_s = (double)(now_ns() - t_steady) / 1e9;
	sh->phase = PH_DRAIN;
	usleep(1000000); /* moves in flight get their broadcasts */
	sh->phase = PH_END;
	for (int i = 0; i < o.procs; i++) {
		int status;

		if (waitpid(kids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			fail = 1;
	}
	if (apid > 0) {
		struct rusage ru;
		int status;

		if (wait4(apid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			fail = 1;
		else
			atk_cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			          (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	}
	sum_stats(&t);
	{
		struct rusage ru;

		if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
			gen_cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			          (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6 - atk_cpu;
	}
	if (o.views) {
		FILE *out = fopen(o.views, "w");

		for (int i = 0; out && i < o.procs; i++) {
			char path[4096], line[8192];
			FILE *in;

			snprintf(path, sizeof path, "%s.%d", o.views, i);
			in = fopen(path, "r");
			while (in && fgets(line, sizeof line, in))
				fputs(line, out);
			if (in)
				fclose(in);
			unlink(path);
		}
		if (out)
			fclose(out);
	}

	/* the table */
	{
		uint64_t errs = 0, expected_closes = 0;
		double mps = steady_s > 0 ? (double)t.moves_steady / steady_s : 0;
		const hist *hs[2] = {&t.opp, &t.spect};
		const char *hn[2] = {"opponent", "spectator"};

		printf("\n== owload: %d rooms x (2 players + %d spectators), %d procs, %d sources, ",
		       o.rooms, o.spectators, o.procs, o.sources);
		if (o.rate > 0)
			printf("paced %.0f moves/s\n", o.rate);
		else
			printf("think %.0f ms\n", o.think_ms);
		printf("%-34s %s\n", "metric", "value");
		printf("%-34s %d of %d in %.2f s: %.0f /s\n", "connections opened (ramp)", conns,
		       o.rooms * (2 + o.spectators) + o.attack[ATK_IDLE], ramp_s,
		       ramp_s > 0 ? conns / ramp_s : 0);
		printf("%-34s %" PRIu64 " total, %" PRIu64 " reconnects, %" PRIu64 " rooms created\n",
		       "connections / rooms", t.opened, t.reconnects, t.rooms_created);
		printf("%-34s %" PRIu64 " in %.1f s: %.0f /s (%" PRIu64 " sent, %" PRIu64
		       " games over)\n", "moves acknowledged (steady)", t.moves_steady, steady_s, mps,
		       t.moves_sent, t.games_over);
		for (int k = 0; k < 2; k++) {
			if (!hs[k]->n)
				continue;
			printf("move->%-28s p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms (n=%" PRIu64
			       ")\n", hn[k], hist_quantile(hs[k], 0.5) / 1e3,
			       hist_quantile(hs[k], 0.99) / 1e3, hist_quantile(hs[k], 0.999) / 1e3,
			       hs[k]->max_us / 1e3, hs[k]->n);
		}
		if (t.drops || t.abandons || t.leaves)
			printf("%-34s %" PRIu64 " drops, %" PRIu64 " abandoned, %" PRIu64 " left\n",
			       "churn (on purpose)", t.drops, t.abandons, t.leaves);
		if (o.stall_ms > 0)
			printf("%-34s %" PRIu64 " (no answer within %.0f ms: closed, opened again)\n",
			       "stalled connections", t.stalls, o.stall_ms);
		if (t.disconnects)
			printf("%-34s %" PRIu64 " (after %s)\n", "connections lost", t.disconnects,
			       killed ? "the server was killed" : "server closes");
		if (killed)
			printf("%-34s %" PRIu64 "\n", "moves after the kill", t.moves_after_loss);
		for (int e = 0; e < E_COUNT; e++) {
			/* with --retry, lost connections and failed reconnects are the
			 * test's own doing (a killed server), not errors */
			if ((o.retry && (e == E_CONNECT || e == E_CLOSED)) ||
			    (o.allow_internal && e == PROTO_E_INTERNAL)) {
				expected_closes += t.err[e];
				continue;
			}
			errs += t.err[e];
		}
		printf("%-34s %" PRIu64, "errors", errs);
		for (int e = 0; e < E_COUNT; e++)
			if (t.err[e] && !(o.retry && (e == E_CONNECT || e == E_CLOSED)) &&
			    !(o.allow_internal && e == PROTO_E_INTERNAL))
				printf(" %s=%" PRIu64, err_name(e), t.err[e]);
		printf("\n");
		if (t.close_codes[1] || t.close_codes[3] || t.close_codes[4] || t.close_codes[5])
			printf("%-34s 1001=%" PRIu64 " 1008=%" PRIu64 " 4001=%" PRIu64 " other=%" PRIu64
			       "\n", "server close codes", t.close_codes[1], t.close_codes[3],
			       t.close_codes[4], t.close_codes[5]);
		attack_rows();
		if (server_pid() && loaded.rss_kib && !killed) {
			double cpu = cpu1.cpu_s - cpu0.cpu_s;

			printf("%-34s %.2f s over %.1f s: %.0f%% of a core, %.1f us per move\n",
			       "server CPU (steady)", cpu, steady_s, 100 * cpu / steady_s,
			       t.moves_steady ? 1e6 * cpu / (double)t.moves_steady : 0);
			printf("%-34s idle %.1f MiB, %d conns %.1f MiB: %.2f KiB per connection\n",
			       "server RSS", idle.rss_kib / 1024.0, conns, loaded.rss_kib / 1024.0,
			       conns ? (double)(loaded.rss_kib - idle.rss_kib) / conns : 0);
			printf("%-34s %.1f MiB\n", "server RSS at end", cpu1.rss_kib / 1024.0);
		}
		printf("%-34s %.2f s over the whole run (%.1f us per move acknowledged)\n",
		       "generator CPU", gen_cpu,
		       t.moves_acked ? 1e6 * gen_cpu / (double)t.moves_acked : 0);
		if (attacking)
			printf("%-34s %.2f s over the whole run\n", "attackers' CPU", atk_cpu);
		if (warm.rss_kib) {
			double g = 100.0 * (double)(rss_max - warm.rss_kib) / (double)warm.rss_kib;

			printf("%-34s %.1f MiB after %.0f s warm-up, max %.1f MiB after: %+.1f%%\n",
			       "server RSS growth", warm.rss_kib / 1024.0, o.warmup, rss_max / 1024.0, g);
			if (o.rss_pct >= 0 && g > o.rss_pct) {
				printf("FAIL: server RSS grew %.1f%% (limit %d%%)\n", g, o.rss_pct);
				fail = 1;
			}
		}
		if (errs) {
			printf("FAIL: %" PRIu64 " errors\n", errs);
			fail = 1;
		}
		if (t.seated < o.rooms && !o.games && !o.abandon_pct) {
			printf("FAIL: %d of %d rooms seated\n", t.seated, o.rooms);
			fail = 1;
		}
		if (killed && !t.moves_after_loss) {
			printf("FAIL: no move after the server was killed\n");
			fail = 1;
		}
		(void)expected_closes;
	}
	return fail;
}
