/* metrics.c: /healthz and /metrics, from the counters of the rooms, the
 * transport, the store and the relays. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/base/clock.h"
#include "server/net/gate.h"
#include "server/events/events.h"
#include "server/net/metrics.h"
#include "server/net/net.h"
#include "server/net/conn.h"
#include "server/net/push.h"
#include "server/net/relay.h"

static int64_t start_ms;

void metrics_init(void)
{
	start_ms = now_ms();
}

/* Appends to a bounded text buffer; returns the new length. */
static size_t add(char *buf, size_t cap, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t add(char *buf, size_t cap, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n >= cap)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
	return k < 0 ? n : n + (size_t)k >= cap ? cap - 1 : n + (size_t)k;
}

/* /healthz: 200 while the store can write, 503 while it cannot. */
size_t metrics_healthz(char *b, size_t cap, unsigned *status)
{
	const store *st = rooms_get_store();
	int ok = rooms_get_stats()->store_ok;

	*status = ok ? HTTP_STATUS_OK : HTTP_STATUS_SERVICE_UNAVAILABLE;
	return add(b, cap, 0, "{\"ok\":%s,\"store\":\"%s\",\"store_kind\":\"%s\","
	           "\"store_reachable\":%s,\"rooms\":%d,\"connections\":%d,"
	           "\"uptime\":%lld}\n", ok ? "true" : "false", ok ? "ok" : "failing", st->kind,
	           st->ops->reachable(st) ? "true" : "false",
	           rooms_count(), net_connections(), (long long)((now_ms() - start_ms) / 1000));
}

/* One metric without labels, with its HELP and TYPE lines. */
static size_t one(char *b, size_t cap, size_t n, const char *name, const char *type,
                  const char *help, unsigned long long v)
{
	return add(b, cap, n, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type,
	           name, v);
}

/* The rooms and the games played in them. */
static size_t rooms_part(char *b, size_t cap, size_t n)
{
	const rooms_stats *rs = rooms_get_stats();

	n = one(b, cap, n, "oware_rooms", "gauge", "Rooms held.", (unsigned)rooms_count());
	n = one(b, cap, n, "oware_connections", "gauge", "Open WebSocket connections.",
	        (unsigned)net_connections());
	n = one(b, cap, n, "oware_uptime_seconds", "gauge", "Seconds since start.",
	        (unsigned long long)((now_ms() - start_ms) / 1000));
	n = one(b, cap, n, "oware_moves_total", "counter", "Moves accepted.", rs->moves);
	n = one(b, cap, n, "oware_rooms_created_total", "counter", "Rooms created.",
	        rs->rooms_created);
	n = one(b, cap, n, "oware_rooms_expired_total", "counter", "Rooms expired.",
	        rs->rooms_expired);
	n = one(b, cap, n, "oware_rooms_evicted_total", "counter",
	        "Rooms removed to make way when the table was full.", rs->rooms_evicted);
	n = one(b, cap, n, "oware_games_ended_total", "counter", "Games ended.", rs->games_ended);
	n = one(b, cap, n, "oware_joins_total", "counter", "Successful joins.", rs->joins);
	n = one(b, cap, n, "oware_events", "gauge", "Club events held.", (unsigned)events_count());
	n = one(b, cap, n, "oware_events_created_total", "counter", "Club events created.",
	        events_get_stats()->created);
	n = one(b, cap, n, "oware_events_expired_total", "counter", "Club events expired.",
	        events_get_stats()->expired);
	n = one(b, cap, n, "oware_event_changes_total", "counter",
	        "Club events' changes written (entries, rounds, results).", events_get_stats()->changes);
	return one(b, cap, n, "oware_chat_lines_total", "counter", "Chat lines sent.",
	           rs->chat_lines);
}

/* What the transport answered clients with: errors, drops, refusals. */
static size_t clients_part(char *b, size_t cap, size_t n)
{
	const net_stats *s = &net_counters;
	const gate_stats *g = gate_get_stats();

	n = add(b, cap, n, "# HELP oware_errors_total Error messages sent, by code.\n"
	        "# TYPE oware_errors_total counter\n");
	for (int e = 1; e < PROTO_E_COUNT; e++)
		n = add(b, cap, n, "oware_errors_total{code=\"%s\"} %llu\n", proto_err_code(e),
		        (unsigned long long)s->errors[e]);
	n = add(b, cap, n, "# HELP oware_clients_dropped_total Connections dropped, by reason.\n"
	        "# TYPE oware_clients_dropped_total counter\n"
	        "oware_clients_dropped_total{reason=\"slow\"} %llu\n"
	        "oware_clients_dropped_total{reason=\"flood\"} %llu\n"
	        "oware_clients_dropped_total{reason=\"oversize\"} %llu\n"
	        "oware_clients_dropped_total{reason=\"idle\"} %llu\n",
	        (unsigned long long)s->dropped_slow, (unsigned long long)s->closed_flood,
	        (unsigned long long)s->closed_oversize, (unsigned long long)s->dropped_idle);
	n = add(b, cap, n, "# HELP oware_connections_refused_total Connections closed at once,"
	        " by reason.\n# TYPE oware_connections_refused_total counter\n"
	        "oware_connections_refused_total{reason=\"per_address\"} %llu\n"
	        "oware_connections_refused_total{reason=\"descriptors\"} %llu\n",
	        (unsigned long long)s->refused_conns, (unsigned long long)s->refused_fds);
	return add(b, cap, n, "# HELP oware_handshakes Connections reading their request headers.\n"
	           "# TYPE oware_handshakes gauge\noware_handshakes %d\n"
	           "# HELP oware_handshakes_cut_total Connections closed while reading their"
	           " request headers, by reason.\n# TYPE oware_handshakes_cut_total counter\n"
	           "oware_handshakes_cut_total{reason=\"silent\"} %llu\n"
	           "oware_handshakes_cut_total{reason=\"evicted\"} %llu\n", gate_reading(),
	           (unsigned long long)g->cut_silent, (unsigned long long)g->evicted);
}

/* The store: its group commits and whether it writes and answers. */
static size_t store_part(char *b, size_t cap, size_t n)
{
	const rooms_stats *rs = rooms_get_stats();
	const store *st = rooms_get_store();

	n = one(b, cap, n, "oware_store_commits_total", "counter", "Group commits of the store.",
	        rs->commits);
	n = add(b, cap, n, "# HELP oware_store_commit_seconds_total Time spent committing (syncing).\n"
	        "# TYPE oware_store_commit_seconds_total counter\n"
	        "oware_store_commit_seconds_total %.6f\n"
	        "# HELP oware_store_commit_max_seconds Longest commit since start.\n"
	        "# TYPE oware_store_commit_max_seconds gauge\noware_store_commit_max_seconds %.6f\n",
	        (double)rs->commit_us / 1e6, (double)rs->commit_max_us / 1e6);
	n = one(b, cap, n, "oware_store_commits_failed_total", "counter",
	        "Group commits that failed (their changes were rolled back).", rs->commits_failed);
	n = one(b, cap, n, "oware_store_ok", "gauge",
	        "1 while the store can write, 0 while changes are refused.", (unsigned)rs->store_ok);
	n = add(b, cap, n, "# HELP oware_store_info The store in use (label store: sqlite or"
	        " postgresql).\n# TYPE oware_store_info gauge\noware_store_info{store=\"%s\"} 1\n",
	        st->kind);
	return one(b, cap, n, "oware_store_reachable", "gauge",
	           "1 while the store's database answers.", (unsigned)st->ops->reachable(st));
}

/* Several servers (PostgreSQL): leases, rooms moving, fenced batches,
 * relays. */
static size_t cluster_part(char *b, size_t cap, size_t n)
{
	const rooms_stats *rs = rooms_get_stats();
	const store *st = rooms_get_store();
	const relay_stats *rl = relay_get_stats();

	n = one(b, cap, n, "oware_leases_renewed_total", "counter",
	        "Renewals of this server's lease on its rooms (PostgreSQL).", st->leases_renewed);
	n = one(b, cap, n, "oware_leases_lost_total", "counter",
	        "Leases this server lost (its rooms all dropped).", st->leases_lost);
	n = one(b, cap, n, "oware_rooms_taken_total", "counter",
	        "Rooms this server took over from the database.", st->rooms_taken);
	n = one(b, cap, n, "oware_rooms_released_total", "counter",
	        "Rooms this server gave up to another.", st->rooms_released);
	n = one(b, cap, n, "oware_batches_fenced_total", "counter", "Commits refused because a"
	        " room written was held by another server (nothing of them kept).",
	        st->batches_fenced);
	n = one(b, cap, n, "oware_relays_total", "counter", "Connections this server relayed to"
	        " the server holding their room (PostgreSQL).", rl->started);
	n = one(b, cap, n, "oware_relays_failed_total", "counter", "Relays that ended before the"
	        " holder's welcome (the join was taken or relayed again).", rl->failed);
	n = one(b, cap, n, "oware_relays_open", "gauge", "Relays open now.", (unsigned)rl->open);
	n = one(b, cap, n, "oware_batches_rewritten_total", "counter", "Commits refused for a room"
	        " another server held whose other rooms' changes were written again at once"
	        " (PostgreSQL).", rs->batches_rewritten);
	return one(b, cap, n, "oware_rooms_fenced_total", "counter",
	           "Rooms dropped because another server held them when written.", rs->rooms_fenced);
}

/* Web Push: what became of the pushes (net/push.h's push_stats). */
static size_t push_part(char *b, size_t cap, size_t n)
{
	const push_stats *p = push_get_stats();

	return add(b, cap, n, "# HELP oware_push_total Web Push messages by result: sent (a push"
	           " service took it), gone (404/410: the subscription dropped), retried (429, 5xx or"
	           " no connection: tried again), failed (given up), capped (--push-per-hour),"
	           " refused (the endpoint reached a refused address), dropped (too many at once).\n"
	           "# TYPE oware_push_total counter\n"
	           "oware_push_total{result=\"sent\"} %llu\noware_push_total{result=\"gone\"} %llu\n"
	           "oware_push_total{result=\"retried\"} %llu\noware_push_total{result=\"failed\"} %llu\n"
	           "oware_push_total{result=\"capped\"} %llu\noware_push_total{result=\"refused\"} %llu\n"
	           "oware_push_total{result=\"dropped\"} %llu\n",
	           (unsigned long long)p->sent, (unsigned long long)p->gone,
	           (unsigned long long)p->retried, (unsigned long long)p->failed,
	           (unsigned long long)p->capped, (unsigned long long)p->refused,
	           (unsigned long long)p->dropped);
}

size_t metrics_text(char *b, size_t cap)
{
	size_t n = rooms_part(b, cap, 0);

	n = clients_part(b, cap, n);
	n = store_part(b, cap, n);
	n = cluster_part(b, cap, n);
	n = push_part(b, cap, n);
	/* The transport's again, last where scrapers have long found it. */
	return one(b, cap, n, "oware_upgrades_refused_total", "counter",
	           "WebSocket upgrades refused for their Origin.", net_counters.refused_origin);
}

/* 1 when the client may read /metrics (--metrics-from; by default all). */
int metrics_allowed(struct lws *wsi)
{
	char addr[64];
	const char *list = net_cfg->metrics_from;
	size_t n = 0;

	if (!list)
		return 1;
	net_client_addr(wsi, addr, sizeof addr);
	for (; *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		while (n && isspace((unsigned char)*list)) {
			list++;
			n--;
		}
		if (n == strlen(addr) && !strncmp(list, addr, n))
			return 1;
	}
	return 0;
}
