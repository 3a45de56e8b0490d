/* main.c: owared's entry: settings, store, rooms restored, the lws context
 * (mounts, listener, keepalive), the event loop, signals and shutdown. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <ev.h>

#include "server/iptable.h"
#include "server/log.h"
#include "server/net.h"
#include "server/room.h"

struct srv srv;

static volatile sig_atomic_t got_signal;
/* The event loop: lws runs on libev's epoll backend. lws's own poll() loop
 * costs time in proportion to all open sockets on every wakeup (three
 * quarters of the server's CPU at a few thousand connections). */
static struct ev_loop *evl;
static lws_sorted_usec_list_t sweep_sul, keepalive_sul;

void srv_fail(void)
{
	if (!srv.failed)
		log_event(LOG_ERROR, "store_failed",
		          "error=\"a commit failed; stopping so that a restart restores the stored state\"");
	srv.failed = 1;
	if (srv.ctx)
		lws_cancel_service(srv.ctx);
}

int srv_flush(void)
{
	lws_usec_t t0;
	uint64_t us;
	int rc;

	if (!store_pending(srv.st))
		return 0;
	t0 = lws_now_usecs();
	rc = store_flush(srv.st);
	us = (uint64_t)(lws_now_usecs() - t0);
	srv.stats.commits++;
	srv.stats.commit_us += us;
	if (us > srv.stats.commit_max_us)
		srv.stats.commit_max_us = us;
	return rc;
}

static void on_signal(int sig)
{
	got_signal = sig;
	if (srv.ctx)
		lws_cancel_service(srv.ctx);
}

/* lws's own warnings and errors, as our log lines. */
static void lws_log(int level, const char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == '\n')
		n--;
	log_event(level == LLL_ERR ? LOG_ERROR : LOG_WARN, "lws", "msg=\"%.*s\"", (int)n, line);
}

static int sweep_interval_s(void)
{
	int s = 60;

	if (srv.cfg.expire_finished < s)
		s = srv.cfg.expire_finished;
	if (srv.cfg.expire_unfinished < s)
		s = srv.cfg.expire_unfinished;
	if (srv.cfg.expire_unjoined < s)
		s = srv.cfg.expire_unjoined;
	return s < 1 ? 1 : s;
}

static void sweep(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	room_expire();
	ip_sweep(now_ms());
	lws_sul_schedule(srv.ctx, 0, &sweep_sul, sweep, (lws_usec_t)sweep_interval_s() * 1000000);
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
	    rl.rlim_cur < (rlim_t)srv.cfg.max_connections + 64)
		log_event(LOG_WARN, "fd_limit", "open_files=%llu max_connections=%d"
		          " (raise the limit, e.g. LimitNOFILE= in systemd)",
		          (unsigned long long)rl.rlim_cur, srv.cfg.max_connections);
}

/* Keepalive sweeps: a quarter of the ping time, from 250 ms to 1 s. */
static lws_usec_t keepalive_us(void)
{
	lws_usec_t us = (lws_usec_t)srv.cfg.ping_seconds * 250000;

	return us > 1000000 ? 1000000 : us < 250000 ? 250000 : us;
}

static void keepalive(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	net_keepalive();
	lws_sul_schedule(srv.ctx, 0, &keepalive_sul, keepalive, keepalive_us());
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
	{NULL, NULL, ".map", "application/json"},
};

static void drain_tick(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)w;
	(void)revents;
}

int main(int argc, char **argv)
{
	struct lws_context_creation_info info;
	ev_timer drain_timer;
	struct lws_http_mount m_root, m_metrics, m_healthz;
	lws_retry_bo_t retry;
	struct lws_vhost *vh;
	char err[512];
	int rc, restored, port;

	rc = config_load(&srv.cfg, argc, argv);
	if (rc)
		return rc > 0 ? 0 : 2;
	log_set_level(log_level_parse(srv.cfg.log_level) < 0 ? LOG_INFO
	              : log_level_parse(srv.cfg.log_level));
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	srv.start_ms = now_ms();

	srv.st = store_open(srv.cfg.db, srv.cfg.sync_full, err, sizeof err);
	if (!srv.st) {
		log_event(LOG_ERROR, "store_open_failed", "error=\"%s\"", err);
		return 1;
	}
	if (room_init(srv.cfg.max_rooms) < 0) {
		log_event(LOG_ERROR, "start_failed", "error=\"out of memory\"");
		goto fail_store;
	}

	evl = ev_loop_new(EVBACKEND_EPOLL);
	if (!evl) {
		log_event(LOG_ERROR, "start_failed", "error=\"no epoll event loop\"");
		goto fail_rooms;
	}
	memset(&info, 0, sizeof info);
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBEV;
	info.foreign_loops = (void *[]){evl};
	/* 0: lws sizes its descriptor table by the open-files limit, so that
	 * every descriptor is found by index (a smaller table makes lws search
	 * linearly); --max-connections is enforced by net.c. */
	info.fd_limit_per_thread = 0;
	info.max_http_header_data = 16384;
	srv.ctx = lws_create_context(&info);
	if (!srv.ctx) {
		log_event(LOG_ERROR, "start_failed", "error=\"lws context\"");
		goto fail_rooms;
	}

	memset(&m_root, 0, sizeof m_root);
	m_root.mountpoint = "/";
	m_root.mountpoint_len = 1;
	m_root.origin = srv.cfg.web_root;
	m_root.def = "index.html";
	m_root.origin_protocol = LWSMPRO_FILE;
	m_root.extra_mimetypes = mime;
	m_root.cache_max_age = 60;
	m_root.cache_reusable = 1;
	m_root.cache_revalidate = 1;
	m_root.protocol = "http"; /* its LWS_CALLBACK_ADD_HEADERS adds headers */
	memset(&m_metrics, 0, sizeof m_metrics);
	m_metrics.mount_next = &m_root;
	m_metrics.mountpoint = "/metrics";
	m_metrics.mountpoint_len = 8;
	m_metrics.origin = "http";
	m_metrics.origin_protocol = LWSMPRO_CALLBACK;
	m_healthz = m_metrics;
	m_healthz.mount_next = &m_metrics;
	m_healthz.mountpoint = "/healthz";

	/* An explicit policy with no validity timers: lws would otherwise use
	 * its 300/310 s default. Keepalive is net_keepalive() (see net.h). */
	memset(&retry, 0, sizeof retry);

	memset(&info, 0, sizeof info);
	info.protocols = net_protocols;
	info.mounts = &m_healthz;
	info.vhost_name = "oware";
	info.retry_and_idle_policy = &retry;
	info.keepalive_timeout = 30;
	if (srv.cfg.unix_path) {
		info.options |= LWS_SERVER_OPTION_UNIX_SOCK;
		info.iface = srv.cfg.unix_path;
		info.unix_socket_perms = NULL;
	} else {
		info.port = srv.cfg.port; /* 0: any free port, logged below */
		info.iface = srv.cfg.listen;
		/* 4.1.6 binds every interface for "127.0.0.1" while IPv6 is on. */
		if (srv.cfg.listen && strchr(srv.cfg.listen, '.'))
			info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	}
	vh = lws_create_vhost(srv.ctx, &info);
	if (!vh) {
		log_event(LOG_ERROR, "start_failed", "error=\"cannot listen on %s port %d\"",
		          srv.cfg.unix_path ? srv.cfg.unix_path
		          : srv.cfg.listen ? srv.cfg.listen : "*", srv.cfg.port);
		goto fail_ctx;
	}
	port = lws_get_vhost_listen_port(vh);

	restored = room_restore_all();
	if (restored < 0) {
		log_event(LOG_ERROR, "start_failed", "error=\"cannot load rooms\"");
		goto fail_ctx;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	lws_sul_schedule(srv.ctx, 0, &sweep_sul, sweep, (lws_usec_t)sweep_interval_s() * 1000000);
	lws_sul_schedule(srv.ctx, 0, &keepalive_sul, keepalive, keepalive_us());
	log_event(LOG_INFO, "listening", "port=%d listen=%s unix=%s web_root=%s db=%s rooms=%d",
	          port, srv.cfg.listen ? srv.cfg.listen : "*",
	          srv.cfg.unix_path ? srv.cfg.unix_path : "-", srv.cfg.web_root, srv.cfg.db,
	          restored);

	while (!got_signal && !srv.failed) {
		ev_run(evl, EVRUN_ONCE);
		/* Group commit: the writes of this pass, in one transaction,
		 * then the messages that show them. */
		if (srv_flush() < 0)
			srv_fail();
		net_send_ready();
	}

	/* Shutdown: a "going away" close to every client, a short drain, then
	 * the context and the store. */
	log_event(LOG_INFO, "stopping", "signal=%d connections=%d", (int)got_signal, srv.connections);
	srv.stopping = 1;
	lws_sul_cancel(&sweep_sul);
	lws_sul_cancel(&keepalive_sul);
	lws_callback_on_writable_all_protocol(srv.ctx, &net_protocols[1]);
	ev_timer_init(&drain_timer, drain_tick, 0.05, 0.05); /* wakes the loop to check the time */
	ev_timer_start(evl, &drain_timer);
	for (int64_t until = now_ms() + 1000; srv.connections > 0 && now_ms() < until;) {
		ev_run(evl, EVRUN_ONCE);
		if (!srv.failed && srv_flush() < 0)
			srv.failed = 1;
		net_send_ready();
	}
	ev_timer_stop(evl, &drain_timer);
	room_free_all(); /* first: rooms hold timers of the context */
	lws_context_destroy(srv.ctx);
	ev_loop_destroy(evl);
	ip_free_all();
	if (!srv.failed && store_flush(srv.st) < 0)
		srv.failed = 1;
	store_close(srv.st);
	log_event(srv.failed ? LOG_ERROR : LOG_INFO, "stopped", "clean=%d", !srv.failed);
	return srv.failed ? 1 : 0;

fail_ctx:
	room_free_all();
	lws_context_destroy(srv.ctx);
	ev_loop_destroy(evl);
	goto fail_store;
fail_rooms:
	room_free_all();
	if (evl)
		ev_loop_destroy(evl);
fail_store:
	store_close(srv.st);
	return 1;
}
