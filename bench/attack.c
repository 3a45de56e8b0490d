/* attack.c: owload's attackers (attack.h, bench/README.md): a ping flood
 * that never reads, spectators that join and close at once, spectators that
 * read for a few ms every few seconds, chat flooders that reconnect to
 * their seat again and again, POST bodies trickled a byte a second, and
 * spectators that pull a chat history and close. Each connection is a raw socket: an
 * upgrade request written by hand, masked client frames, the server's
 * frames read as a stream (only the first HEAD_MAX bytes of each kept). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <ev.h>

#include "bench/attack.h"
#include "bench/jscan.h"
#include "bench/rng.h"

#define HS_MAX 2048          /* the upgrade answer's head */
#define HEAD_MAX 512         /* kept of each frame: a whole welcome or error */
#define BURST_PINGS 10922    /* empty masked pings (6 bytes) per burst: 64 KiB */
#define WRITES_PER_EVENT 16  /* bursts per writeable event, so timers run */
#define DRAIN_READS 256      /* reads for a close frame once a flood ends */
#define TIMEOUT_MS 10000     /* to connect, upgrade, or (churn) be answered */
#define SLOW_WINDOW_MS 5     /* a slow reader reads this long, */
#define SLOW_PAUSE_MS 2000   /* every 1 to 3 s, */
#define SLOW_LONG_PCT 10     /* but this often pauses longer than the */
#define SLOW_LONG_MS 60000   /* server's default --hangup-seconds (50) */
#define SLOW_RCVBUF 4096     /* so that the server's side fills at once */
#define CHAT_EVERY_MS 100    /* a chat flooder's line, 10 a second (under */
                             /* --max-msgs-per-sec, over the chat limit), */
#define CHAT_SEAT_MS 2000    /* and it reconnects to its seat this often */
#define TRICKLE_LEN 100      /* a trickler's Content-Length, */
#define TRICKLE_EVERY_MS 1000 /* a byte of it each second, */
#define TRICKLE_GIVE_UP_MS 30000 /* and held this long at most (AS_HELD) */
#define HISTORY_WAIT_MS 1000 /* a puller's wait for chat_history after its welcome */

enum { S_IDLE, S_CONNECTING, S_UPGRADING, S_OPEN };

/* One attacker; lives for the whole run, its socket comes and goes. */
typedef struct actor {
	int kind, src, fd, state;
	ev_io io;
	ev_timer tm;              /* reconnect, time-out, slow reader's windows */
	char room[40];            /* the room joined, or "" */
	char hs[HS_MAX];
	size_t hsn;
	unsigned char fh[14];     /* the header of the frame being read */
	int fhn, fneed, in_payload, op;
	uint64_t left, flen;      /* payload bytes still to come, in all */
	size_t headn;
	char head[HEAD_MAX];
	size_t boff;              /* ping flood: offset in the burst */
	int reading;              /* slow reader: in a read window */
	char token[80];           /* chat flooder: its seat's token, or "" */
	int welcomed;             /* chat, history: a welcome on this connection */
	int sent;                 /* trickle: body bytes sent */
	double opened;            /* chat, trickle: when this connection began (s) */
} actor;

/* The attackers' process state, for atk_run's life. */
static struct {
	const atk_config *cfg;
	atk_stats *st;
	struct ev_loop *loop;
	actor *a;
	int na;
	int chat_first, chat_n;   /* the chat flooders in a[] (their rooms) */
	struct sockaddr_in server;
	uint64_t rng;
	unsigned char burst[BURST_PINGS * 6];
	unsigned char rx[65536];
} g;

static uint64_t rnd(void)
{
	return rng_next(&g.rng);
}

static double rnd01(void)
{
	return rng_01(&g.rng);
}

static void add(const actor *a, int field, uint64_t n)
{
	g.st->v[a->kind][field] += n;
}

static void set_io(actor *a, int events)
{
	ev_io_stop(g.loop, &a->io);
	if (!events)
		return;
	ev_io_set(&a->io, a->fd, events);
	ev_io_start(g.loop, &a->io);
}

static void later(actor *a, double ms)
{
	ev_timer_stop(g.loop, &a->tm);
	ev_timer_set(&a->tm, ms / 1000, 0);
	ev_timer_start(g.loop, &a->tm);
}

/* Closes a's socket (a reset: no TIME_WAIT left on our ports) and starts
 * the next connection after ms (none when ms < 0). */
static void again(actor *a, double ms)
{
	ev_io_stop(g.loop, &a->io);
	ev_timer_stop(g.loop, &a->tm);
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	a->state = S_IDLE;
	a->hsn = 0;
	a->fhn = a->in_payload = 0;
	a->boff = 0;
	a->reading = 0;
	a->welcomed = 0;
	a->sent = 0;
	if (ms >= 0)
		later(a, ms);
}

/* The connection failed before it was of use: retry after the pause. */
static void fail(actor *a)
{
	add(a, AS_FAILED, 1);
	again(a, g.cfg->pause_ms);
}

/* The server ended the connection without a close frame we read. */
static void ended(actor *a)
{
	add(a, AS_NO_CLOSE, 1);
	again(a, g.cfg->pause_ms);
}

/* Writes one masked frame (payload under 126 bytes) at once: 0, or -1. */
static int send_frame(actor *a, int op, const char *payload, size_t n)
{
	unsigned char f[6 + 125];
	uint64_t m = rnd();

	if (n > 125)
		return -1;
	f[0] = (unsigned char)(0x80 | op);
	f[1] = (unsigned char)(0x80 | n);
	memcpy(f + 2, &m, 4);
	for (size_t i = 0; i < n; i++)
		f[6 + i] = (unsigned char)payload[i] ^ f[2 + i % 4];
	return send(a->fd, f, 6 + n, MSG_NOSIGNAL) == (ssize_t)(6 + n) ? 0 : -1;
}

/* A room the players hold now, into a->room: 0, or -1 when none is found. */
static int pick_room(actor *a)
{
	a->room[0] = 0;
	for (int k = 0; k < 8 && g.cfg->nids > 0; k++) {
		const char *id = g.cfg->ids[rnd() % (uint64_t)g.cfg->nids];

		/* a player may be writing it: a torn id is answered no_room */
		memcpy(a->room, id, sizeof a->room);
		a->room[sizeof a->room - 1] = 0;
		if (strlen(a->room) == 36)
			return 0;
	}
	a->room[0] = 0;
	return -1;
}

/* A room of a chat flooder (with a history), into a->room: 0, or -1. */
static int pick_chat_room(actor *a)
{
	for (int k = 0; k < 8 && g.chat_n > 0; k++) {
		const actor *c = &g.a[g.chat_first + (int)(rnd() % (uint64_t)g.chat_n)];

		if (c->room[0]) {
			memcpy(a->room, c->room, sizeof a->room);
			return 0;
		}
	}
	a->room[0] = 0;
	return -1;
}

static void start(actor *a)
{
	struct sockaddr_in src;
	struct linger lg = {1, 0};
	int rcvbuf = SLOW_RCVBUF;
	unsigned host = (unsigned)(g.cfg->first_src + a->kind * g.cfg->nsrc + a->src);

	if (g.cfg->done())
		return;
	if (a->kind != ATK_IDLE && !g.cfg->steady()) {
		later(a, 50);
		return;
	}
	if (a->kind == ATK_TRICKLE || a->kind == ATK_IDLE || a->kind == ATK_SILENT)
		a->room[0] = 0;
	else if (a->kind == ATK_CHAT)
		; /* its own room (or none yet: it creates one), kept across connections */
	else if (a->kind == ATK_HISTORY ? pick_chat_room(a) < 0 && pick_room(a) < 0
	                                : pick_room(a) < 0 && a->kind != ATK_PING) {
		later(a, g.cfg->pause_ms);
		return;
	}
	a->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (a->fd < 0) {
		fail(a);
		return;
	}
	setsockopt(a->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	if (a->kind == ATK_SLOW)
		setsockopt(a->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	memset(&src, 0, sizeof src);
	src.sin_family = AF_INET;
	src.sin_addr.s_addr = htonl(0x7f000000u | host);
	if (bind(a->fd, (struct sockaddr *)&src, sizeof src) < 0 ||
	    (connect(a->fd, (struct sockaddr *)&g.server, sizeof g.server) < 0 &&
	     errno != EINPROGRESS)) {
		fail(a);
		return;
	}
	a->state = S_CONNECTING;
	set_io(a, EV_WRITE);
	later(a, TIMEOUT_MS);
}

static void on_connected(actor *a)
{
	char req[512];
	int err = 0, n;
	socklen_t len = sizeof err;

	if (getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
		fail(a);
		return;
	}
	if (a->kind == ATK_SILENT) {
		/* Connected, and not one byte: it holds a header buffer until
		 * the server closes it. */
		add(a, AS_UPGRADED, 1);
		a->opened = ev_now(g.loop);
		a->state = S_OPEN;
		set_io(a, EV_READ);
		later(a, TRICKLE_GIVE_UP_MS);
		return;
	}
	if (a->kind == ATK_TRICKLE) {
		/* The head at once, then the body a byte a second. */
		n = snprintf(req, sizeof req,
		             "POST /api/rooms HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
		             "Content-Length: %d\r\n\r\n{", g.cfg->host, g.cfg->port, TRICKLE_LEN);
		if (n <= 0 || n >= (int)sizeof req || send(a->fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
			fail(a);
			return;
		}
		add(a, AS_UPGRADED, 1);
		a->sent = 1;
		a->opened = ev_now(g.loop);
		a->state = S_OPEN;
		set_io(a, EV_READ);
		later(a, TRICKLE_EVERY_MS);
		return;
	}
	n = snprintf(req, sizeof req,
	             "GET %s%s%s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
	             "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
	             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	             "Sec-WebSocket-Protocol: oware.v1\r\n\r\n",
	             g.cfg->path, a->room[0] ? "?room=" : "", a->room, g.cfg->host, g.cfg->port);
	if (n <= 0 || n >= (int)sizeof req || send(a->fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
		fail(a);
		return;
	}
	a->state = S_UPGRADING;
	set_io(a, EV_READ);
}

/* A whole message within HEAD_MAX: welcome or error counted. Returns 0, or
 * -1 when it ended a's connection. */
static int on_text(actor *a)
{
	char typeb[16], codeb[32];
	jval m, v;

	static const char hist[] = "{\"type\":\"chat_history\"";

	if (a->kind == ATK_HISTORY && a->headn >= sizeof hist - 1 &&
	    !memcmp(a->head, hist, sizeof hist - 1)) {
		add(a, AS_CHAT_OK, 1); /* read whole (its frame ended): the next */
		again(a, 0);
		return -1;
	}
	if (a->flen > a->headn || js_parse(a->head, a->headn, &m) ||
	    js_get(m, "type", &v) || js_str(v, typeb, sizeof typeb) < 0)
		return 0; /* a state, a history */
	if (!strcmp(typeb, "welcome")) {
		add(a, AS_WELCOMED, 1);
		a->welcomed = 1;
		if (a->kind == ATK_CHURN) {
			again(a, 0); /* and at once the next */
			return -1;
		}
		if (a->kind == ATK_CHAT) {
			if (!js_get(m, "room", &v))
				js_str(v, a->room, sizeof a->room);
			if (!js_get(m, "token", &v))
				js_str(v, a->token, sizeof a->token);
		}
		if (a->kind == ATK_HISTORY)
			later(a, HISTORY_WAIT_MS);
		return 0;
	}
	if (!strcmp(typeb, "chat") && a->kind == ATK_CHAT)
		add(a, AS_CHAT_OK, 1);
	if (strcmp(typeb, "error"))
		return 0;
	if (!js_get(m, "code", &v) && js_str(v, codeb, sizeof codeb) >= 0 &&
	    !strcmp(codeb, "rate_limited")) {
		add(a, AS_RATE_LIMITED, 1);
		if (a->kind == ATK_CHAT && a->welcomed)
			return 0; /* a line refused: it floods on */
	} else {
		add(a, AS_OTHER_ERR, 1);
		if (a->kind == ATK_CHAT) {
			/* its room expired, or its seat is lost: a new room next */
			a->room[0] = 0;
			a->token[0] = 0;
		}
	}
	/* outside any room now: of no more use */
	again(a, g.cfg->pause_ms);
	return -1;
}

/* The server's close frame: counted by code (and 1008's reason). */
static void on_close(actor *a)
{
	int code = a->headn >= 2 ? (unsigned char)a->head[0] << 8 | (unsigned char)a->head[1] : 0;
	size_t rn = a->headn >= 2 ? a->headn - 2 : 0;
	const char *why = a->head + 2;

	if (code != 1008)
		add(a, AS_OTHER_CODE, 1);
	else if (rn == 13 && !memcmp(why, "message flood", 13))
		add(a, AS_FLOOD, 1);
	else if (rn == 8 && !memcmp(why, "too slow", 8))
		add(a, AS_SLOW, 1);
	else if (rn == 4 && !memcmp(why, "idle", 4))
		add(a, AS_IDLE, 1);
	else
		add(a, AS_1008, 1);
	again(a, g.cfg->pause_ms);
}

/* One whole frame of the server: 0, or -1 when it ended a's connection. */
static int on_frame(actor *a)
{
	switch (a->op) {
	case 1:
		return on_text(a);
	case 8:
		on_close(a);
		return -1;
	case 9: /* a ping: answered like a browser would, when it reads */
		if (a->flen <= a->headn)
			send_frame(a, 10, a->head, a->headn);
		return 0;
	default:
		return 0;
	}
}

/* Reads the server's frames from p[0..n): 0, or -1 when one of them ended
 * a's connection. */
static int feed(actor *a, const unsigned char *p, size_t n)
{
	while (n) {
		size_t take, keep;

		if (!a->in_payload) {
			int l7;

			a->fh[a->fhn++] = *p++;
			n--;
			if (a->fhn == 2)
				a->fneed = 2 + ((a->fh[1] & 127) == 126 ? 2 : (a->fh[1] & 127) == 127 ? 8 : 0) +
				           (a->fh[1] & 0x80 ? 4 : 0);
			if (a->fhn < 2 || a->fhn < a->fneed)
				continue;
			a->op = a->fh[0] & 15;
			l7 = a->fh[1] & 127;
			a->left = (uint64_t)l7;
			if (l7 >= 126) {
				a->left = 0;
				for (int i = 2; i < (l7 == 126 ? 4 : 10); i++)
					a->left = a->left << 8 | a->fh[i];
			}
			a->flen = a->left;
			a->fhn = 0;
			a->headn = 0;
			a->in_payload = 1;
		}
		take = (uint64_t)n < a->left ? n : (size_t)a->left;
		keep = HEAD_MAX - a->headn < take ? HEAD_MAX - a->headn : take;
		memcpy(a->head + a->headn, p, keep);
		a->headn += keep;
		p += take;
		n -= take;
		a->left -= take;
		if (!a->left) {
			a->in_payload = 0;
			if (on_frame(a) < 0)
				return -1;
		}
	}
	return 0;
}

static void on_upgrade(actor *a)
{
	ssize_t n = read(a->fd, a->hs + a->hsn, sizeof a->hs - 1 - a->hsn);
	char *end;
	size_t rest;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		fail(a);
		return;
	}
	a->hsn += (size_t)n;
	a->hs[a->hsn] = 0;
	end = strstr(a->hs, "\r\n\r\n");
	if (!end) {
		if (a->hsn == sizeof a->hs - 1)
			fail(a);
		return;
	}
	if (strncmp(a->hs, "HTTP/1.1 101 ", 13)) {
		fail(a);
		return;
	}
	add(a, AS_UPGRADED, 1);
	if (a->kind == ATK_CHAT) {
		char msg[126];
		int mn = a->room[0] && a->token[0]
		         ? snprintf(msg, sizeof msg, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}",
		                    a->room, a->token)
		         : snprintf(msg, sizeof msg, "{\"type\":\"create\",\"side\":\"south\"}");

		if (mn <= 0 || mn >= (int)sizeof msg || send_frame(a, 1, msg, (size_t)mn) < 0) {
			ended(a);
			return;
		}
		a->opened = ev_now(g.loop);
	} else if (a->room[0]) {
		char join[80];
		int jn = snprintf(join, sizeof join, "{\"type\":\"join\",\"room\":\"%s\"}", a->room);

		if (send_frame(a, 1, join, (size_t)jn) < 0) {
			ended(a);
			return;
		}
	}
	a->state = S_OPEN;
	ev_timer_stop(g.loop, &a->tm);
	if (a->kind == ATK_PING) {
		set_io(a, EV_WRITE); /* and never read */
		return;
	}
	set_io(a, EV_READ);
	a->reading = 1;
	if (a->kind == ATK_IDLE)
		ev_timer_stop(g.loop, &a->tm); /* reads, answers pings, nothing more */
	else
		later(a, a->kind == ATK_SLOW ? SLOW_WINDOW_MS : a->kind == ATK_CHAT ? CHAT_EVERY_MS
		                                                                     : TIMEOUT_MS);
	rest = a->hsn - (size_t)(end + 4 - a->hs);
	feed(a, (const unsigned char *)end + 4, rest);
}

/* Reads and follows what the server sent, up to reads times: -1 when a
 * frame ended a's connection, 0 when nothing more waits (or reads ran
 * out), 1 when the socket ended. */
static int pump(actor *a, int reads)
{
	for (int k = 0; k < reads; k++) {
		ssize_t n = read(a->fd, g.rx, sizeof g.rx);

		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 1;
		add(a, AS_BYTES_RX, (uint64_t)n);
		if (feed(a, g.rx, (size_t)n) < 0)
			return -1;
	}
	return 0;
}

static void on_readable(actor *a)
{
	if (pump(a, 16) > 0)
		ended(a);
}

/* A trickler's socket: any answer, or the server's close. */
static void on_trickle_readable(actor *a)
{
	ssize_t n = read(a->fd, g.rx, sizeof g.rx);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n > 0)
		add(a, AS_BYTES_RX, (uint64_t)n);
	add(a, n > 0 ? AS_ANSWERED : AS_CUT, 1);
	again(a, g.cfg->pause_ms);
}

/* The trickler's next byte, or the end of its patience. */
static void trickle_tick(actor *a)
{
	if (ev_now(g.loop) - a->opened >= TRICKLE_GIVE_UP_MS / 1000.0) {
		add(a, AS_HELD, 1);
		again(a, g.cfg->pause_ms);
		return;
	}
	if (a->sent < TRICKLE_LEN - 1) {
		if (send(a->fd, "x", 1, MSG_NOSIGNAL) == 1) {
			a->sent++;
			add(a, AS_BYTES_TX, 1);
		}
	}
	later(a, TRICKLE_EVERY_MS);
}

/* The chat flooder's next line, or a new connection to its seat. */
static void chat_tick(actor *a)
{
	char line[120];
	int n;

	if (ev_now(g.loop) - a->opened >= CHAT_SEAT_MS / 1000.0) {
		again(a, 0); /* and back at once with its token */
		return;
	}
	if (a->welcomed) {
		n = snprintf(line, sizeof line, "{\"type\":\"chat\",\"text\":\"flood %016llx %s\"}",
		             (unsigned long long)rnd(), "lorem ipsum dolor sit amet consectetur");
		if (send_frame(a, 1, line, (size_t)n) < 0) {
			ended(a);
			return;
		}
		add(a, AS_BYTES_TX, (uint64_t)n + 6);
	}
	later(a, CHAT_EVERY_MS);
}

/* The flood's socket failed: what the server sent may hold its close
 * frame behind the unread pongs. */
static void drain(actor *a)
{
	if (pump(a, DRAIN_READS) >= 0)
		ended(a);
}

static void on_flood_writeable(actor *a)
{
	for (int k = 0; k < WRITES_PER_EVENT; k++) {
		ssize_t n = send(a->fd, g.burst + a->boff, sizeof g.burst - a->boff, MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			drain(a);
			return;
		}
		add(a, AS_BYTES_TX, (uint64_t)n);
		a->boff = (a->boff + (size_t)n) % sizeof g.burst;
	}
}

static void on_io(struct ev_loop *loop, ev_io *w, int revents)
{
	actor *a = w->data;

	(void)loop;
	(void)revents;
	switch (a->state) {
	case S_CONNECTING:
		on_connected(a);
		break;
	case S_UPGRADING:
		on_upgrade(a);
		break;
	case S_OPEN:
		if (a->kind == ATK_PING)
			on_flood_writeable(a);
		else if (a->kind == ATK_TRICKLE || a->kind == ATK_SILENT)
			on_trickle_readable(a);
		else
			on_readable(a);
		break;
	default:
		break;
	}
}

static void on_timer(struct ev_loop *loop, ev_timer *t, int revents)
{
	actor *a = t->data;

	(void)loop;
	(void)revents;
	if (a->state == S_IDLE)
		start(a);
	else if (a->state == S_OPEN && a->kind == ATK_CHAT)
		chat_tick(a);
	else if (a->state == S_OPEN && a->kind == ATK_TRICKLE)
		trickle_tick(a);
	else if (a->state == S_OPEN && a->kind == ATK_SILENT) {
		add(a, AS_HELD, 1); /* still open after 30 s */
		again(a, g.cfg->pause_ms);
	}
	else if (a->state == S_OPEN && a->kind == ATK_HISTORY && a->welcomed)
		again(a, 0); /* no history came (none yet): the next */
	else if (a->state != S_OPEN || a->kind == ATK_CHURN || a->kind == ATK_HISTORY)
		fail(a); /* not connected, upgraded or answered in time */
	else if (a->kind == ATK_SLOW && a->reading) {
		a->reading = 0;
		set_io(a, 0);
		later(a, rnd() % 100 < SLOW_LONG_PCT ? SLOW_LONG_MS
		                                    : SLOW_PAUSE_MS * (0.5 + rnd01()));
	} else if (a->kind == ATK_SLOW) {
		a->reading = 1;
		set_io(a, EV_READ);
		later(a, SLOW_WINDOW_MS);
	}
}

static void on_poll(struct ev_loop *loop, ev_timer *t, int revents)
{
	(void)t;
	(void)revents;
	if (g.cfg->done())
		ev_break(loop, EVBREAK_ALL);
}

int atk_run(const atk_config *cfg, atk_stats *st)
{
	ev_timer poll;
	int k, i, n = 0;

	memset(&g, 0, sizeof g);
	g.cfg = cfg;
	g.st = st;
	g.rng = (uint64_t)getpid() * 0x2545f4914f6cdd1dull ^ (uint64_t)time(NULL);
	g.server.sin_family = AF_INET;
	g.server.sin_port = htons((unsigned short)cfg->port);
	if (inet_pton(AF_INET, cfg->host, &g.server.sin_addr) != 1) {
		fprintf(stderr, "owload: the attackers need an IPv4 address, not %s\n", cfg->host);
		return -1;
	}
	for (i = 0; i < BURST_PINGS; i++) {
		uint64_t m = rnd();

		g.burst[6 * i] = 0x89;     /* FIN, ping */
		g.burst[6 * i + 1] = 0x80; /* masked, empty */
		memcpy(g.burst + 6 * i + 2, &m, 4);
	}
	for (k = 0; k < ATK_KINDS; k++)
		n += cfg->n[k];
	g.a = calloc((size_t)n, sizeof *g.a);
	g.loop = ev_loop_new(EVBACKEND_EPOLL);
	if (!g.a || !g.loop) {
		fprintf(stderr, "owload: the attackers' loop could not be made\n");
		free(g.a);
		return -1;
	}
	for (k = 0; k < ATK_KINDS; k++)
		for (i = 0; i < cfg->n[k]; i++) {
			actor *a = &g.a[g.na++];

			if (k == ATK_CHAT && !i)
				g.chat_first = g.na - 1;
			if (k == ATK_CHAT)
				g.chat_n++;
			a->kind = k;
			a->src = i % cfg->nsrc;
			a->fd = -1;
			ev_init(&a->io, on_io);
			a->io.data = a;
			ev_init(&a->tm, on_timer);
			a->tm.data = a;
			later(a, rnd01() * cfg->pause_ms); /* not all at once */
		}
	ev_timer_init(&poll, on_poll, 0.05, 0.05);
	ev_timer_start(g.loop, &poll);
	ev_run(g.loop, 0);
	for (i = 0; i < g.na; i++)
		again(&g.a[i], -1);
	ev_timer_stop(g.loop, &poll);
	ev_loop_destroy(g.loop);
	free(g.a);
	return 0;
}
