/* main.c: owared's entry: settings, store, rooms restored, the lws context
 * (mounts, listener, keepalive), the event loop, signals and shutdown. */
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <ev.h>

#include "server/base/clock.h"
#include "server/config.h"
#include "server/net/api_rooms.h"
#include "server/store/fault.h"
#include "server/net/files.h"
#include "server/net/gate.h"
#include "server/net/http.h"
#include "server/net/metrics.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/net/net.h"
#include "server/net/push.h"
#include "server/net/relay.h"
#include "server/rooms/rooms.h"
#include "server/base/sha256.h"
#include "server/base/webpush.h"
#include "server/store/store.h"

/* Owned by main() for the life of the process. */
static srv_config cfg;
static store *st;
static struct lws_context *ctx;

static volatile sig_atomic_t got_signal;
/* The event loop: lws runs on libev's epoll backend. lws's own poll() loop
 * costs time in proportion to all open sockets on every wakeup (three
 * quarters of the server's CPU at a few thousand connections). */
static struct ev_loop *evl;
static lws_sorted_usec_list_t sweep_sul, keepalive_sul, rooms_sul;
/* The pairing worker's wake-up (events_pairing_init): a round paired off
 * the loop is applied on it. */
static ev_async pair_async;
static int64_t rooms_armed = -1; /* the deadline rooms_sul is set for */
/* Seconds the start waits for PostgreSQL (its rooms are read before
 * listening). */
#define PG_WAIT_S 30.0

/* Group commit: the writes of this pass in one transaction, then the
 * messages whose commits are confirmed (a lost batch takes its messages
 * with it: rooms.c has the transport drop them). */
static void commit_and_send(void)
{
	rooms_flush();
	net_send_ready();
	push_release();
	api_push_release();
}

static void rooms_timer(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	rooms_armed = -1;
	rooms_run_timers(now_ms());
}

/* Sets the rooms' timer to their earliest deadline, when it changed. */
static void arm_rooms_timer(void)
{
	int64_t d = rooms_next_deadline(), now;

	if (d == rooms_armed)
		return;
	rooms_armed = d;
	if (d < 0) {
		lws_sul_cancel(&rooms_sul);
		return;
	}
	now = now_ms();
	lws_sul_schedule(ctx, 0, &rooms_sul, rooms_timer,
	                 (lws_usec_t)(d > now ? d - now : 0) * 1000);
}

/* On the worker's thread: ev_async_send is libev's thread-safe call. */
static void pair_wake(void)
{
	ev_async_send(evl, &pair_async);
}

static void pair_ready(struct ev_loop *loop, ev_async *w, int revents)
{
	(void)loop;
	(void)w;
	(void)revents;
	events_pairings_done();
}

static void on_signal(int sig)
{
	got_signal = sig;
	if (ctx)
		lws_cancel_service(ctx);
}

/* lws's own warnings and errors, as our log lines: at most LWS_LOG_BURST
 * every ten seconds (a failing socket call can repeat thousands of times
 * a second), then how many were left out. */
#define LWS_LOG_BURST 20

static void lws_log(int level, const char *line)
{
	static int64_t window;
	static unsigned lines, dropped;
	int64_t now = now_ms();
	size_t n = strlen(line);

	if (now - window >= 10000) {
		if (dropped)
			log_event(LOG_WARN, "lws_log_suppressed", "lines=%u", dropped);
		window = now;
		lines = dropped = 0;
	}
	if (++lines > LWS_LOG_BURST) {
		dropped++;
		return;
	}
	char esc[1024];

	while (n && line[n - 1] == '\n')
		n--;
	/* lws may quote what a client sent: escaped. */
	log_event(level == LLL_ERR ? LOG_ERROR : LOG_WARN, "lws", "msg=\"%s\"",
	          log_esc(esc, sizeof esc, line, n, 1));
}

static int sweep_interval_s(void)
{
	int s = 60;

	if (cfg.rooms.expire_finished < s)
		s = cfg.rooms.expire_finished;
	if (cfg.rooms.expire_unfinished < s)
		s = cfg.rooms.expire_unfinished;
	if (cfg.rooms.expire_unjoined < s)
		s = cfg.rooms.expire_unjoined;
	if (cfg.events.expire_events < s)
		s = cfg.events.expire_events;
	return s < 1 ? 1 : s;
}

static void sweep(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	rooms_expire();
	events_expire();
	ip_sweep(now_ms());
	log_flush(0);
	lws_sul_schedule(ctx, 0, &sweep_sul, sweep, (lws_usec_t)sweep_interval_s() * 1000000);
}

/* Lifts the soft limit of open files to the hard one: every connection
 * holds a descriptor, and --max-connections may well exceed 1024. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)cfg.net.max_connections + 64)
		log_event(LOG_WARN, "fd_limit", "open_files=%llu max_connections=%d"
		          " (raise the limit, e.g. LimitNOFILE= in systemd)",
		          (unsigned long long)rl.rlim_cur, cfg.net.max_connections);
	/* One address may hold at most half the descriptors left for
	 * connections (net.c keeps NET_FD_RESERVE): never all of them. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		long half = ((long)rl.rlim_cur - NET_FD_RESERVE) / 2;

		if (half < 1)
			half = 1;
		if (cfg.net.max_sockets_per_ip > half || cfg.net.max_conns_per_ip > half) {
			log_event(LOG_WARN, "fd_limit", "open_files=%llu max_sockets_per_ip=%d"
			          " max_conns_per_ip=%d clamped_to=%ld (half the descriptors left"
			          " after %d kept back; raise the open-files limit)",
			          (unsigned long long)rl.rlim_cur, cfg.net.max_sockets_per_ip,
			          cfg.net.max_conns_per_ip, half, NET_FD_RESERVE);
			if (cfg.net.max_sockets_per_ip > half)
				cfg.net.max_sockets_per_ip = (int)half;
			if (cfg.net.max_conns_per_ip > half)
				cfg.net.max_conns_per_ip = (int)half;
		}
	}
}

/* Keepalive: every connection seen once in a quarter of the ping time,
 * from 250 ms to 1 s, a slice of them each tick (net_keepalive). */
#define KEEPALIVE_TICK_MS 20

static int64_t keepalive_period_ms(void)
{
	int64_t ms = (int64_t)cfg.net.ping_seconds * 250;

	return ms > 1000 ? 1000 : ms < 250 ? 250 : ms;
}

static void keepalive(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	net_keepalive(keepalive_period_ms(), KEEPALIVE_TICK_MS);
	gate_tick(now_ms());
	rooms_probe();
	lws_sul_schedule(ctx, 0, &keepalive_sul, keepalive, KEEPALIVE_TICK_MS * 1000);
}

static const struct lws_protocol_vhost_options mime[] = {
	{&mime[1], NULL, ".wasm", "application/wasm"},
	{&mime[2], NULL, ".mjs", "text/javascript"},
	{&mime[3], NULL, ".js", "text/javascript"},
	{&mime[4], NULL, ".json", "application/json"},
	{&mime[5], NULL, ".svg", "image/svg+xml"},
	{&mime[6], NULL, ".webmanifest", "application/manifest+json"},
	{&mime[7], NULL, ".ico", "image/x-icon"},
	{&mime[8], NULL, ".woff2", "font/woff2"},
	{&mime[9], NULL, ".txt", "text/plain; charset=utf-8"},
	{&mime[10], NULL, ".egdb", "application/octet-stream"}, /* web/oware.egdb */
	{NULL, NULL, ".map", "application/json"},
};

/* Where the other servers reach this one to relay their clients
 * (server/CLUSTER.md, "Split routing"): --relay-address, else the
 * --listen address if it is one, else 127.0.0.1 (servers on one host);
 * none on a unix socket unless given. 1 with it in out, 0 for none. */
static int relay_address(int port, char *out, size_t cap)
{
	const char *l = cfg.listen;
	struct in6_addr a6;
	struct in_addr a4;

	if (cfg.relay_address)
		return snprintf(out, cap, "%s", cfg.relay_address) < (int)cap;
	if (cfg.net.unix_path)
		return 0;
	if (l && inet_pton(AF_INET, l, &a4) == 1 && a4.s_addr != htonl(INADDR_ANY))
		return snprintf(out, cap, "%s:%d", l, port) < (int)cap;
	if (l && inet_pton(AF_INET6, l, &a6) == 1 && !IN6_IS_ADDR_UNSPECIFIED(&a6))
		return snprintf(out, cap, "[%s]:%d", l, port) < (int)cap;
	return snprintf(out, cap, "127.0.0.1:%d", port) < (int)cap;
}

/* The server vhost's protocols, "http" first (relays have a vhost of
 * their own: relay_init). */
static const struct lws_protocols *protocols[] = {&http_protocol, &net_protocol, NULL};

/* The mounts, tried from the longest mountpoint: the routes answered by
 * the "http" protocol (http.c), then the files of the web root (files.c
 * adds its headers through "http" too). The two file mounts take their
 * origin from --web-root at start (mounts_init); the rest never changes.
 * /v/<hash>/...: the client's modules, engines and data by a name that
 * changes with their content (web/v/<hash> is a link to the web root
 * that make writes, web/part.mk): kept a year by browsers, with
 * "immutable" (files.c's files_add_headers). */
static struct lws_http_mount m_root = {
	.mountpoint = "/", .mountpoint_len = 1, .def = "index.html",
	.origin_protocol = LWSMPRO_FILE, .extra_mimetypes = mime, .protocol = "http",
	.cache_max_age = 60, .cache_reusable = 1, .cache_revalidate = 1,
};
static struct lws_http_mount m_ver = {
	.mount_next = &m_root, .mountpoint = "/v", .mountpoint_len = 2,
	.origin_protocol = LWSMPRO_FILE, .extra_mimetypes = mime, .protocol = "http",
	.cache_max_age = 31536000, .cache_reusable = 1, .cache_intermediaries = 1,
};
static const struct lws_http_mount m_metrics = {
	.mount_next = &m_ver, .mountpoint = "/metrics", .mountpoint_len = 8,
	.origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
};
static const struct lws_http_mount m_healthz = {
	.mount_next = &m_metrics, .mountpoint = "/healthz", .mountpoint_len = 8,
	.origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
};
static const struct lws_http_mount m_api_events = { /* GET: an event, its exports */
	.mount_next = &m_healthz, .mountpoint = "/api/events", .mountpoint_len = 11,
	.origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
};
static const struct lws_http_mount m_api_push = { /* GET: the key; POST: a subscription */
	.mount_next = &m_api_events, .mountpoint = "/api/push", .mountpoint_len = 9,
	.origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
};
static const struct lws_http_mount m_api_rooms = { /* POST: several rooms at once */
	.mount_next = &m_api_push, .mountpoint = "/api/rooms", .mountpoint_len = 10,
	.origin = "http", .origin_protocol = LWSMPRO_CALLBACK,
};

static void mounts_init(const char *web_root)
{
	static char ver_root[PATH_MAX];

	snprintf(ver_root, sizeof ver_root, "%s/v", web_root);
	m_root.origin = web_root;
	m_ver.origin = ver_root;
}

/* The store of --store: PostgreSQL (shared by several servers, named by
 * --node-id or host and port), or SQLite. NULL with err set on failure. */
static store *store_open(char *err, size_t cap)
{
	char node[128], host[64] = "";

	if (!cfg.pg)
		return store_sqlite_open(cfg.db, cfg.sync_full, err, cap);
	gethostname(host, sizeof host - 1);
	if (cfg.net.unix_path)
		snprintf(node, sizeof node, "%s:%s", host, cfg.net.unix_path);
	else if (cfg.port)
		snprintf(node, sizeof node, "%s:%d", host, cfg.port);
	else /* a port of the kernel's choice: not the same at a restart */
		snprintf(node, sizeof node, "%s:0:%ld", host, (long)getpid());
	return store_pg_open(evl, cfg.pg, cfg.node_id ? cfg.node_id : node, cfg.lease_seconds,
	                     PG_WAIT_S, err, cap);
}

/* Test build only: shorter chat windows and correspondence days
 * (docs/testing.md), so that tests see them run out in seconds. */
static void test_overrides(rooms_config *rc, events_config *ec, push_config *pc)
{
#if defined(OW_FAULTS) && OW_FAULTS
	/* OW_TEST_PUSH_LOOPBACK=1: subscriptions may name a fake push service
	 * on the loopback, over http: too (tests/server/push.test.mjs). */
	if (getenv("OW_TEST_PUSH_LOOPBACK") && atoi(getenv("OW_TEST_PUSH_LOOPBACK")) == 1) {
		pc->loopback = rc->push_loopback = 1;
		log_event(LOG_WARN, "test_push_loopback", "on=1");
	}
	/* OW_TEST_CHAT_WINDOW_MS=N counts the chat limits (5 lines a seat,
	 * 20 an address) in N ms instead of 10 s. */
	if (getenv("OW_TEST_CHAT_WINDOW_MS") && atoi(getenv("OW_TEST_CHAT_WINDOW_MS")) > 0) {
		rc->chat_window_ms = atoi(getenv("OW_TEST_CHAT_WINDOW_MS"));
		log_event(LOG_WARN, "test_chat_window", "ms=%lld", (long long)rc->chat_window_ms);
	}
	/* OW_TEST_TIME_SCALE=N makes a correspondence day N times shorter. */
	if (getenv("OW_TEST_TIME_SCALE") && atoi(getenv("OW_TEST_TIME_SCALE")) > 1) {
		rc->lim.day_ms /= atoi(getenv("OW_TEST_TIME_SCALE"));
		log_event(LOG_WARN, "test_time_scale", "day_ms=%lld", (long long)rc->lim.day_ms);
	}
	/* OW_TEST_EVENT_MAKE_WAY_S=N: an unstarted event makes way in a full
	 * table after N seconds idle instead of an hour. */
	if (getenv("OW_TEST_EVENT_MAKE_WAY_S") && atoi(getenv("OW_TEST_EVENT_MAKE_WAY_S")) > 0) {
		ec->make_way_s = atoi(getenv("OW_TEST_EVENT_MAKE_WAY_S"));
		log_event(LOG_WARN, "test_event_make_way", "s=%d", ec->make_way_s);
	}
#else
	(void)rc;
	(void)ec;
	(void)pc;
#endif
}

/* The lws context on the libev loop, with the files' open hook. */
static struct lws_context *context_new(void)
{
	struct lws_context_creation_info info;
	struct lws_context *c;

	memset(&info, 0, sizeof info);
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBEV;
	if (cfg.push.on) /* Web Push's client speaks HTTPS to the push services */
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.foreign_loops = (void *[]){evl};
	/* 0: lws sizes its descriptor table by the open-files limit, so that
	 * every descriptor is found by index (a smaller table makes lws search
	 * linearly); --max-connections is enforced by net.c. */
	info.fd_limit_per_thread = 0;
	info.max_http_header_data = 16384;
	/* Each connection whose request headers are being read holds a
	 * buffer of that size (lws's default allows one per descriptor):
	 * a burst of handshakes would leave the heap as large as their number
	 * at once. More than --max-handshakes wait their turn (lws gives each
	 * 10 s at most to send its headers). */
	info.max_http_header_pool = (unsigned short)cfg.net.max_handshakes;
	c = lws_create_context(&info);
	if (c)
		files_init(c);
	return c;
}

/* The listening vhost (TCP or a unix socket, the protocols and mounts),
 * then the relays' vhost; tells the store where relays reach this
 * server. The port listened on, or -1. */
static int listen_start(void)
{
	/* An explicit policy with no validity timers: lws would otherwise use
	 * its 300/310 s default. Keepalive is net_keepalive() (see net.h). */
	static const lws_retry_bo_t retry;
	struct lws_context_creation_info info;
	struct lws_vhost *vh;
	char relay[96];
	int port;

	mounts_init(cfg.net.web_root);
	memset(&info, 0, sizeof info);
	info.pprotocols = protocols;
	info.mounts = &m_api_rooms;
	info.vhost_name = "oware";
	info.retry_and_idle_policy = &retry;
	info.keepalive_timeout = 30;
	if (cfg.net.unix_path) {
		info.options |= LWS_SERVER_OPTION_UNIX_SOCK;
		info.iface = cfg.net.unix_path;
		info.unix_socket_perms = NULL;
	} else {
		info.port = cfg.port; /* 0: any free port, logged below */
		info.iface = cfg.listen;
		/* 4.1.6 binds every interface for "127.0.0.1" while IPv6 is on. */
		if (cfg.listen && strchr(cfg.listen, '.'))
			info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	}
	vh = lws_create_vhost(ctx, &info);
	if (!vh) {
		log_event(LOG_ERROR, "start_failed", "error=\"cannot listen on %s port %d\"",
		          cfg.net.unix_path ? cfg.net.unix_path
		          : cfg.listen ? cfg.listen : "*", cfg.port);
		return -1;
	}
	if (relay_init(ctx) < 0) {
		log_event(LOG_ERROR, "start_failed", "error=\"relay vhost\"");
		return -1;
	}
	if (cfg.push.on && push_init(ctx) < 0) {
		log_event(LOG_ERROR, "start_failed", "error=\"push vhost\"");
		return -1;
	}
	port = lws_get_vhost_listen_port(vh);
	if (st->ops->set_relay && relay_address(port, relay, sizeof relay))
		st->ops->set_relay(st, relay);
	return port;
}

/* Signals, the expiry sweep and the keepalive sweep. */
static void timers_start(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	lws_sul_schedule(ctx, 0, &sweep_sul, sweep, (lws_usec_t)sweep_interval_s() * 1000000);
	lws_sul_schedule(ctx, 0, &keepalive_sul, keepalive, KEEPALIVE_TICK_MS * 1000);
}

/* The loop until a signal: each pass's events, then its group commit
 * and the messages it releases, then the rooms' next deadline. */
static void serve(void)
{
	while (!got_signal) {
		ev_run(evl, EVRUN_ONCE);
		commit_and_send();
		arm_rooms_timer();
	}
}

static void drain_tick(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)w;
	(void)revents;
}

/* Shutdown: a "going away" close to every client, a short drain, then
 * the last writes and the answers to every commit in flight. 0 when
 * every write was committed, else -1. */
static int drain(void)
{
	ev_timer drain_timer;
	uint64_t failed;
	int rc;

	log_event(LOG_INFO, "stopping", "signal=%d connections=%d", (int)got_signal,
	          net_connections());
	net_stop();
	rooms_stop();
	lws_sul_cancel(&sweep_sul);
	lws_sul_cancel(&keepalive_sul);
	lws_sul_cancel(&rooms_sul);
	lws_callback_on_writable_all_protocol(ctx, &net_protocol);
	ev_timer_init(&drain_timer, drain_tick, 0.05, 0.05); /* wakes the loop to check the time */
	ev_timer_start(evl, &drain_timer);
	for (int64_t until = now_ms() + 1000; net_connections() > 0 && now_ms() < until;) {
		ev_run(evl, EVRUN_ONCE);
		commit_and_send();
	}
	failed = rooms_get_stats()->commits_failed;
	rooms_flush();
	for (int64_t until = now_ms() + 5000; rooms_outstanding() && now_ms() < until;) {
		ev_run(evl, EVRUN_ONCE);
		rooms_flush();
	}
	rc = rooms_outstanding() || rooms_get_stats()->commits_failed != failed ? -1 : 0;
	ev_timer_stop(evl, &drain_timer);
	return rc;
}

/* The rooms and the events over the store st, with what they were
 * before a restart: the number of rooms restored, or -1 after logging
 * why (nothing left set up). */
static int layers_start(void)
{
	int restored;

	static char push_pub[WEBPUSH_B64_LEN(WEBPUSH_POINT_LEN) + 1];

	sha256_init();
	test_overrides(&cfg.rooms, &cfg.events, &cfg.push);
	cfg.rooms.ip = cfg.events.ip = cfg.net.ip = &cfg.ip;
	/* Web Push's key pair, made at the first start and kept in the store. */
	if (cfg.push.on && push_keys_load(st, &cfg.push, push_pub, sizeof push_pub) < 0)
		return -1;
	cfg.rooms.push_key = cfg.push.on ? push_pub : NULL;
	if (rooms_init(&cfg.rooms, st, &net_rooms_io) < 0) {
		log_event(LOG_ERROR, "start_failed", "error=\"out of memory\"");
		return -1;
	}
	if (cfg.push.on)
		rooms_on_push(push_send);
	events_init(&cfg.events, st, &net_rooms_io);
	ev_async_init(&pair_async, pair_ready);
	ev_async_start(evl, &pair_async);
	events_pairing_init(pair_wake);
	/* Before listening: no connection sees the rooms half restored. */
	restored = rooms_restore();
	if (restored < 0 || events_restore() < 0) {
		log_event(LOG_ERROR, "start_failed", "error=\"cannot load %s\"",
		          restored < 0 ? "rooms" : "events");
		events_free_all();
		rooms_free_all();
		return -1;
	}
	return restored;
}

int main(int argc, char **argv)
{
	char err[512];
	int rc, restored, port;

	rc = config_load(&cfg, argc, argv);
	if (rc)
		return rc > 0 ? 0 : 2;
	log_set_level(log_level_parse(cfg.log_level) < 0 ? LOG_INFO
	              : log_level_parse(cfg.log_level));
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	net_init(&cfg.net);
	http_init();
	metrics_init();
	if (fault_init() < 0)
		return 1;
	/* The loop first: the PostgreSQL store lives on it. */
	evl = ev_loop_new(EVBACKEND_EPOLL);
	if (!evl) {
		log_event(LOG_ERROR, "start_failed", "error=\"no epoll event loop\"");
		return 1;
	}
	st = store_open(err, sizeof err);
	if (!st) {
		log_event(LOG_ERROR, "store_open_failed", "error=\"%s\"", err);
		ev_loop_destroy(evl);
		return 1;
	}
	restored = layers_start();
	if (restored < 0)
		goto fail_store;
	ctx = context_new();
	if (!ctx) {
		log_event(LOG_ERROR, "start_failed", "error=\"lws context\"");
		events_free_all();
		rooms_free_all();
		goto fail_store;
	}
	port = listen_start();
	if (port < 0)
		goto fail_ctx;
	timers_start();
	/* The PostgreSQL URI may hold a password: only the store's kind. */
	log_event(LOG_INFO, "listening", "port=%d listen=%s unix=%s web_root=%s db=%s rooms=%d",
	          port, cfg.listen ? cfg.listen : "*", cfg.net.unix_path ? cfg.net.unix_path : "-",
	          cfg.net.web_root, cfg.pg ? "postgresql" : cfg.db, restored);
	serve();
	events_pairing_stop();
	rc = drain();
	push_stop();
	events_free_all();
	rooms_free_all();
	lws_context_destroy(ctx);
	st->ops->close(st);
	ev_loop_destroy(evl);
	ip_free_all();
	net_free();
	log_flush(1);
	log_event(rc < 0 ? LOG_ERROR : LOG_INFO, "stopped", "clean=%d", rc == 0);
	return rc < 0 ? 1 : 0;

fail_ctx:
	push_stop();
	events_free_all();
	rooms_free_all();
	lws_context_destroy(ctx);
	goto fail_store;
fail_store:
	net_free();
	st->ops->close(st);
	ev_loop_destroy(evl);
	return 1;
}
