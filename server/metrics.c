/* metrics.c: /healthz and /metrics, from the counters of the rooms, the
 * transport, the store and the relays. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/clock.h"
#include "server/metrics.h"
#include "server/net_int.h"
#include "server/relay.h"

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

size_t metrics_text(char *b, size_t cap)
{
	const net_stats *s = &net_counters;
	const relay_stats *rl = relay_get_stats();
	const rooms_stats *rs = rooms_get_stats();
	size_t n = 0;

	n = add(b, cap, n, "# HELP oware_rooms Rooms held.\n# TYPE oware_rooms gauge\n"
	        "oware_rooms %d\n", rooms_count());
	n = add(b, cap, n, "# HELP oware_connections Open WebSocket connections.\n"
	        "# TYPE oware_connections gauge\noware_connections %d\n", net_connections());
	n = add(b, cap, n, "# HELP oware_uptime_seconds Seconds since start.\n"
	        "# TYPE oware_uptime_seconds gauge\noware_uptime_seconds %lld\n",
	        (long long)((now_ms() - start_ms) / 1000));
	n = add(b, cap, n, "# HELP oware_moves_total Moves accepted.\n"
	        "# TYPE oware_moves_total counter\noware_moves_total %llu\n",
	        (unsigned long long)rs->moves);
	n = add(b, cap, n, "# HELP oware_rooms_created_total Rooms created.\n"
	        "# TYPE oware_rooms_created_total counter\noware_rooms_created_total %llu\n",
	        (unsigned long long)rs->rooms_created);
	n = add(b, cap, n, "# HELP oware_rooms_expired_total Rooms expired.\n"
	        "# TYPE oware_rooms_expired_total counter\noware_rooms_expired_total %llu\n",
	        (unsigned long long)rs->rooms_expired);
	n = add(b, cap, n, "# HELP oware_rooms_evicted_total Rooms removed to make way when the"
	        " table was full.\n# TYPE oware_rooms_evicted_total counter\n"
	        "oware_rooms_evicted_total %llu\n", (unsigned long long)rs->rooms_evicted);
	n = add(b, cap, n, "# HELP oware_games_ended_total Games ended.\n"
	        "# TYPE oware_games_ended_total counter\noware_games_ended_total %llu\n",
	        (unsigned long long)rs->games_ended);
	n = add(b, cap, n, "# HELP oware_joins_total Successful joins.\n"
	        "# TYPE oware_joins_total counter\noware_joins_total %llu\n",
	        (unsigned long long)rs->joins);
	n = add(b, cap, n, "# HELP oware_chat_lines_total Chat lines sent.\n"
	        "# TYPE oware_chat_lines_total counter\noware_chat_lines_total %llu\n",
	        (unsigned long long)rs->chat_lines);
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
	n = add(b, cap, n, "# HELP oware_store_commits_total Group commits of the store.\n"
	        "# TYPE oware_store_commits_total counter\noware_store_commits_total %llu\n"
	        "# HELP oware_store_commit_seconds_total Time spent committing (syncing).\n"
	        "# TYPE oware_store_commit_seconds_total counter\n"
	        "oware_store_commit_seconds_total %.6f\n"
	        "# HELP oware_store_commit_max_seconds Longest commit since start.\n"
	        "# TYPE oware_store_commit_max_seconds gauge\noware_store_commit_max_seconds %.6f\n",
	        (unsigned long long)rs->commits, (double)rs->commit_us / 1e6,
	        (double)rs->commit_max_us / 1e6);
	n = add(b, cap, n, "# HELP oware_store_commits_failed_total Group commits that failed (their"
	        " changes were rolled back).\n# TYPE oware_store_commits_failed_total counter\n"
	        "oware_store_commits_failed_total %llu\n"
	        "# HELP oware_store_ok 1 while the store can write, 0 while changes are refused.\n"
	        "# TYPE oware_store_ok gauge\noware_store_ok %d\n",
	        (unsigned long long)rs->commits_failed, rs->store_ok);
	n = add(b, cap, n, "# HELP oware_store_info The store in use (label store: sqlite or"
	        " postgresql).\n# TYPE oware_store_info gauge\noware_store_info{store=\"%s\"} 1\n"
	        "# HELP oware_store_reachable 1 while the store's database answers.\n"
	        "# TYPE oware_store_reachable gauge\noware_store_reachable %d\n",
	        rooms_get_store()->kind, rooms_get_store()->ops->reachable(rooms_get_store()));
	n = add(b, cap, n, "# HELP oware_leases_renewed_total Renewals of this server's lease on its"
	        " rooms (PostgreSQL).\n# TYPE oware_leases_renewed_total counter\n"
	        "oware_leases_renewed_total %llu\n"
	        "# HELP oware_leases_lost_total Leases this server lost (its rooms all dropped).\n"
	        "# TYPE oware_leases_lost_total counter\noware_leases_lost_total %llu\n"
	        "# HELP oware_rooms_taken_total Rooms this server took over from the database.\n"
	        "# TYPE oware_rooms_taken_total counter\noware_rooms_taken_total %llu\n"
	        "# HELP oware_rooms_released_total Rooms this server gave up to another.\n"
	        "# TYPE oware_rooms_released_total counter\noware_rooms_released_total %llu\n"
	        "# HELP oware_batches_fenced_total Commits refused because a room written was held"
	        " by another server (nothing of them kept).\n"
	        "# TYPE oware_batches_fenced_total counter\noware_batches_fenced_total %llu\n",
	        (unsigned long long)rooms_get_store()->leases_renewed,
	        (unsigned long long)rooms_get_store()->leases_lost,
	        (unsigned long long)rooms_get_store()->rooms_taken,
	        (unsigned long long)rooms_get_store()->rooms_released,
	        (unsigned long long)rooms_get_store()->batches_fenced);
	n = add(b, cap, n, "# HELP oware_relays_total Connections this server relayed to the server"
	        " holding their room (PostgreSQL).\n# TYPE oware_relays_total counter\n"
	        "oware_relays_total %llu\n"
	        "# HELP oware_relays_failed_total Relays that ended before the holder's welcome"
	        " (the join was taken or relayed again).\n"
	        "# TYPE oware_relays_failed_total counter\noware_relays_failed_total %llu\n"
	        "# HELP oware_relays_open Relays open now.\n# TYPE oware_relays_open gauge\n"
	        "oware_relays_open %d\n", (unsigned long long)rl->started,
	        (unsigned long long)rl->failed, rl->open);
	n = add(b, cap, n, "# HELP oware_batches_rewritten_total Commits refused for a room another"
	        " server held whose other rooms' changes were written again at once (PostgreSQL).\n"
	        "# TYPE oware_batches_rewritten_total counter\noware_batches_rewritten_total %llu\n"
	        "# HELP oware_rooms_fenced_total Rooms dropped because another server held them when"
	        " written.\n# TYPE oware_rooms_fenced_total counter\noware_rooms_fenced_total %llu\n",
	        (unsigned long long)rs->batches_rewritten, (unsigned long long)rs->rooms_fenced);
	n = add(b, cap, n, "# HELP oware_upgrades_refused_total WebSocket upgrades refused for their Origin.\n"
	        "# TYPE oware_upgrades_refused_total counter\noware_upgrades_refused_total %llu\n",
	        (unsigned long long)s->refused_origin);
	return n;
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
