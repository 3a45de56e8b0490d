/* pg.c: a non-blocking, pipelined PostgreSQL connection on a libev loop
 * (see pg.h). */
#include "server/store/pg.h"

#include <ev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONNECT_TIMEOUT 5.0     /* s: libpq leaves it to us when non-blocking */
#define RETRY_MIN 0.1           /* s: first pause after a failure, doubled each time */
#define RETRY_MAX 2.0

enum { ST_DOWN, ST_CONNECTING, ST_PREPARING, ST_UP };
enum { IT_EXEC, IT_SYNC, IT_PREPARE, IT_PREPARE_SYNC };

typedef struct item {
	int kind;
	int answered;           /* IT_EXEC, IT_PREPARE: its result came */
	pg_result_fn *rfn;
	pg_sync_fn *sfn;
	void *arg;
} item;

struct pg {
	struct ev_loop *loop;
	char *conninfo;
	const pg_stmt *stmts;
	int nstmts;
	pg_state_fn *on_state;
	void *state_arg;

	PGconn *c;
	int state;
	ev_io rio, wio;
	ev_timer timer;          /* connect timeout, or the pause before a retry */
	double pause;

	item *q;                 /* ring of items sent and not answered */
	int qhead, qlen, qcap;
	int seg_failed;          /* a statement of the current segment failed */
	char seg_err[256];
	char err[256];
	int broken;              /* a send failed: dropped at the next timer */
	int prep_syncs;          /* set-up segments not yet answered */
	pg_notify_fn *on_notify;
	void *notify_arg;
};

static void connect_start(pg *p);
static void on_io(struct ev_loop *loop, ev_io *w, int revents);

static void set_err(pg *p, const char *what, const char *why)
{
	size_t n;

	snprintf(p->err, sizeof p->err, "%s: %s", what, why && *why ? why : "unknown");
	n = strlen(p->err);
	while (n > 0 && (p->err[n - 1] == '\n' || p->err[n - 1] == ' '))
		p->err[--n] = '\0';
}

static int push(pg *p, item it)
{
	if (p->qlen == p->qcap) {
		int cap = p->qcap ? p->qcap * 2 : 64;
		item *q = malloc((size_t)cap * sizeof *q);

		if (!q)
			return -1;
		for (int i = 0; i < p->qlen; i++)
			q[i] = p->q[(p->qhead + i) % p->qcap];
		free(p->q);
		p->q = q;
		p->qcap = cap;
		p->qhead = 0;
	}
	p->q[(p->qhead + p->qlen) % p->qcap] = it;
	p->qlen++;
	return 0;
}

static item *head(pg *p)
{
	return p->qlen ? &p->q[p->qhead] : NULL;
}

static item pop(pg *p)
{
	item it = p->q[p->qhead];

	p->qhead = (p->qhead + 1) % p->qcap;
	p->qlen--;
	return it;
}

/* Watches the socket for reading and/or writing (it may change while
 * connecting). */
static void watch(pg *p, int rd, int wr)
{
	int fd = p->c ? PQsocket(p->c) : -1;

	if (ev_is_active(&p->rio) && (p->rio.fd != fd || !rd))
		ev_io_stop(p->loop, &p->rio);
	if (ev_is_active(&p->wio) && (p->wio.fd != fd || !wr))
		ev_io_stop(p->loop, &p->wio);
	if (fd < 0)
		return;
	if (rd && !ev_is_active(&p->rio)) {
		ev_io_set(&p->rio, fd, EV_READ);
		ev_io_start(p->loop, &p->rio);
	}
	if (wr && !ev_is_active(&p->wio)) {
		ev_io_set(&p->wio, fd, EV_WRITE);
		ev_io_start(p->loop, &p->wio);
	}
}

/* Drops the connection: every waiting item fails, and a retry is set. */
static void lost(pg *p)
{
	int was_up = p->state == ST_UP;

	if (p->state == ST_DOWN)
		return;
	ev_io_stop(p->loop, &p->rio);
	ev_io_stop(p->loop, &p->wio);
	ev_timer_stop(p->loop, &p->timer);
	if (p->c) {
		if (!*p->err)
			set_err(p, "connection lost", PQerrorMessage(p->c));
		PQfinish(p->c);
		p->c = NULL;
	}
	p->state = ST_DOWN;
	p->broken = 0;
	p->seg_failed = 0;
	while (p->qlen) {
		item it = pop(p);

		if (it.kind == IT_EXEC && !it.answered && it.rfn)
			it.rfn(it.arg, NULL);
		else if (it.kind == IT_SYNC && it.sfn)
			it.sfn(it.arg, 0, "connection lost");
	}
	if (was_up && p->on_state)
		p->on_state(p->state_arg, 0);
	if (p->state == ST_DOWN) {
		ev_timer_set(&p->timer, p->pause, 0);
		ev_timer_start(p->loop, &p->timer);
		p->pause = p->pause * 2 > RETRY_MAX ? RETRY_MAX : p->pause * 2;
	}
}

static void flush(pg *p)
{
	int r = PQflush(p->c);

	if (r < 0) {
		set_err(p, "send failed", PQerrorMessage(p->c));
		lost(p);
		return;
	}
	watch(p, 1, r == 1);
}

static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message; /* "already exists, skipping" and the like */
}

/* The connection is made: the set-up, then the prepared statements. */
static void prepare(pg *p)
{
	*p->err = '\0';
	PQsetNoticeProcessor(p->c, quiet, NULL);
	if (PQsetnonblocking(p->c, 1) != 0 || !PQenterPipelineMode(p->c)) {
		set_err(p, "pipeline mode", PQerrorMessage(p->c));
		lost(p);
		return;
	}
	p->state = ST_PREPARING;
	p->prep_syncs = 0;
	/* Unnamed statements first, in a segment of their own (the schema the
	 * prepared ones refer to), then the prepared ones. */
	for (int pass = 0; pass < 2; pass++) {
		int any = 0;

		for (int i = 0; i < p->nstmts; i++) {
			const pg_stmt *s = &p->stmts[i];
			int ok;

			if ((s->name == NULL) != (pass == 0))
				continue;
			ok = pass == 0 ? PQsendQueryParams(p->c, s->sql, 0, NULL, NULL, NULL, NULL, 0)
			               : PQsendPrepare(p->c, s->name, s->sql, s->nparams, NULL);
			if (!ok || push(p, (item){.kind = IT_PREPARE}) < 0) {
				set_err(p, "prepare", PQerrorMessage(p->c));
				lost(p);
				return;
			}
			any = 1;
		}
		if (!any)
			continue;
		if (!PQpipelineSync(p->c) || push(p, (item){.kind = IT_PREPARE_SYNC}) < 0) {
			set_err(p, "prepare", PQerrorMessage(p->c));
			lost(p);
			return;
		}
		p->prep_syncs++;
	}
	if (!p->prep_syncs) {
		p->state = ST_UP;
		p->pause = RETRY_MIN;
		if (p->on_state)
			p->on_state(p->state_arg, 1);
		return;
	}
	flush(p);
}

static void connect_poll(pg *p)
{
	switch (PQconnectPoll(p->c)) {
	case PGRES_POLLING_READING:
		watch(p, 1, 0);
		break;
	case PGRES_POLLING_WRITING:
		watch(p, 0, 1);
		break;
	case PGRES_POLLING_OK:
		ev_timer_stop(p->loop, &p->timer);
		watch(p, 1, 0);
		prepare(p);
		break;
	default:
		set_err(p, "connect", PQerrorMessage(p->c));
		p->state = ST_CONNECTING;
		lost(p);
		break;
	}
}

/* Results in order, as far as they have arrived. */
static void read_results(pg *p)
{
	item *h;

	while ((h = head(p)) && p->c && !PQisBusy(p->c)) {
		PGresult *r = PQgetResult(p->c);
		ExecStatusType st;

		if (h->kind == IT_EXEC || h->kind == IT_PREPARE) {
			if (!r) {
				if (h->answered)
					pop(p);
				else
					break;
				continue;
			}
			st = PQresultStatus(r);
			if (st == PGRES_PIPELINE_SYNC) {
				PQclear(r);
				set_err(p, "protocol", "a sync where a result was due");
				lost(p);
				return;
			}
			if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && !p->seg_failed) {
				p->seg_failed = 1;
				snprintf(p->seg_err, sizeof p->seg_err, "%s",
				         st == PGRES_PIPELINE_ABORTED ? "aborted" : PQresultErrorMessage(r));
			}
			if (!h->answered) {
				h->answered = 1;
				if (h->rfn)
					h->rfn(h->arg, r);
			}
			PQclear(r);
			continue;
		}
		/* A sync. */
		if (!r)
			break;
		st = PQresultStatus(r);
		PQclear(r);
		if (st != PGRES_PIPELINE_SYNC) {
			set_err(p, "protocol", "a result where a sync was due");
			lost(p);
			return;
		}
		{
			item it = pop(p);
			int ok = !p->seg_failed;
			char why[sizeof p->seg_err];

			snprintf(why, sizeof why, "%s", ok ? "" : p->seg_err);
			p->seg_failed = 0;
			if (it.kind == IT_PREPARE_SYNC) {
				if (!ok) {
					set_err(p, "prepare", why);
					lost(p);
					return;
				}
				if (--p->prep_syncs == 0) {
					p->state = ST_UP;
					p->pause = RETRY_MIN;
					if (p->on_state)
						p->on_state(p->state_arg, 1);
				}
			} else if (it.sfn) {
				it.sfn(it.arg, ok, why);
			}
		}
	}
}

static void on_io(struct ev_loop *loop, ev_io *w, int revents)
{
	pg *p = w->data;

	(void)loop;
	if (p->state == ST_CONNECTING) {
		connect_poll(p);
		return;
	}
	if (revents & EV_WRITE) {
		flush(p);
		if (p->state == ST_DOWN)
			return;
	}
	if (revents & EV_READ) {
		if (!PQconsumeInput(p->c)) {
			set_err(p, "connection lost", PQerrorMessage(p->c));
			lost(p);
			return;
		}
		read_results(p);
		for (PGnotify *n; p->state != ST_DOWN && (n = PQnotifies(p->c));) {
			/* Not those this connection sent itself. */
			if (p->on_notify && n->be_pid != PQbackendPID(p->c))
				p->on_notify(p->notify_arg, n->relname, n->extra);
			PQfreemem(n);
		}
		if (p->state != ST_DOWN && PQstatus(p->c) == CONNECTION_BAD) {
			set_err(p, "connection lost", PQerrorMessage(p->c));
			lost(p);
		}
	}
}

static void on_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
	pg *p = w->data;

	(void)loop;
	(void)revents;
	if (p->broken) {
		lost(p);
		return;
	}
	if (p->state == ST_CONNECTING) {
		set_err(p, "connect", "timed out");
		lost(p);
		return;
	}
	if (p->state == ST_DOWN)
		connect_start(p);
}

static void connect_start(pg *p)
{
	/* Keepalives notice a server that vanished without a word; the
	 * conninfo given (expanded from dbname, after these) may override. */
	static const char *const keys[] = {"keepalives", "keepalives_idle", "keepalives_interval",
	                                   "keepalives_count", "application_name", "dbname", NULL};
	const char *vals[] = {"1", "5", "2", "3", "owared", p->conninfo, NULL};

	p->c = PQconnectStartParams(keys, vals, 1);
	if (!p->c || PQstatus(p->c) == CONNECTION_BAD) {
		set_err(p, "connect", p->c ? PQerrorMessage(p->c) : "out of memory");
		p->state = ST_CONNECTING;
		lost(p);
		return;
	}
	p->state = ST_CONNECTING;
	ev_timer_set(&p->timer, CONNECT_TIMEOUT, 0);
	ev_timer_start(p->loop, &p->timer);
	watch(p, 0, 1);
}

pg *pg_new(struct ev_loop *loop, const char *conninfo, const pg_stmt *stmts, int n,
           pg_state_fn *on_state, void *arg)
{
	pg *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->conninfo = strdup(conninfo);
	if (!p->conninfo) {
		free(p);
		return NULL;
	}
	p->loop = loop;
	p->stmts = stmts;
	p->nstmts = n;
	p->on_state = on_state;
	p->state_arg = arg;
	p->pause = RETRY_MIN;
	ev_io_init(&p->rio, on_io, -1, EV_READ);
	ev_io_init(&p->wio, on_io, -1, EV_WRITE);
	ev_timer_init(&p->timer, on_timer, 0, 0);
	p->rio.data = p->wio.data = p->timer.data = p;
	connect_start(p);
	return p;
}

void pg_free(pg *p)
{
	if (!p)
		return;
	p->on_state = NULL;
	lost(p);
	ev_timer_stop(p->loop, &p->timer);
	free(p->q);
	free(p->conninfo);
	free(p);
}

void pg_set_notify(pg *p, pg_notify_fn *fn, void *arg)
{
	p->on_notify = fn;
	p->notify_arg = arg;
}

int pg_up(const pg *p)
{
	return p->state == ST_UP;
}

const char *pg_error(const pg *p)
{
	return p->err;
}

int pg_pending(const pg *p)
{
	return p->qlen;
}

/* A send failed: the connection is dropped from the loop, not here, so
 * that no callback runs inside pg_exec or pg_sync; statements of the open
 * segment die with the connection, uncommitted. */
static int broke(pg *p, const char *why)
{
	set_err(p, "send", why);
	p->broken = 1;
	ev_timer_stop(p->loop, &p->timer);
	ev_timer_set(&p->timer, 0, 0);
	ev_timer_start(p->loop, &p->timer);
	return -1;
}

int pg_exec(pg *p, const char *name, int n, const char *const *vals, pg_result_fn *fn, void *arg)
{
	if (p->state != ST_UP || p->broken)
		return -1;
	if (!PQsendQueryPrepared(p->c, name, n, vals, NULL, NULL, 0))
		return broke(p, PQerrorMessage(p->c));
	if (push(p, (item){.kind = IT_EXEC, .rfn = fn, .arg = arg}) < 0)
		return broke(p, "out of memory");
	return 0;
}

int pg_sync(pg *p, pg_sync_fn *fn, void *arg)
{
	int r;

	if (p->state != ST_UP || p->broken)
		return -1;
	if (!PQpipelineSync(p->c))
		return broke(p, PQerrorMessage(p->c));
	if (push(p, (item){.kind = IT_SYNC, .sfn = fn, .arg = arg}) < 0)
		return broke(p, "out of memory");
	/* The sync is queued: from here on its callback will run. */
	r = PQflush(p->c);
	if (r < 0)
		broke(p, PQerrorMessage(p->c));
	else
		watch(p, 1, r == 1);
	return 0;
}
