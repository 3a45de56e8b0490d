/* config.c: flag and environment parsing for owared, driven by one table. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/base/webpush.h"
#include "server/config.h"

/* The web client of an installed owared: `make install` puts the binary in
 * PREFIX/bin and the client in PREFIX/share/oware-rooms/web, so look there
 * first (for any PREFIX or DESTDIR), then in ./web (a source checkout). */
static const char *default_web_root(void)
{
	static char dir[4096];
	char index[4096 + 32];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	char *slash;

	if (n > 0) {
		dir[n] = 0;
		slash = strrchr(dir, '/');
		if (slash && (size_t)(slash - dir) + sizeof "/../share/oware-rooms/web" < sizeof dir) {
			strcpy(slash, "/../share/oware-rooms/web");
			snprintf(index, sizeof index, "%s/index.html", dir);
			if (access(index, R_OK) == 0)
				return dir;
		}
	}
	return "./web";
}

/* T_INT and after are numbers, checked against min and max: T_INT an
 * int, T_UINT an unsigned, T_I64 an int64_t, T_MS seconds kept as
 * milliseconds in an int64_t. */
enum { T_STR, T_BOOL, T_SYNC, T_ONOFF, T_INT, T_UINT, T_I64, T_MS };

static const struct opt {
	const char *flag, *env;
	int type;
	size_t off;
	long min, max;
	const char *def, *help;
} opts[] = {
	{"port", "OW_PORT", T_INT, offsetof(srv_config, port), 0, 65535, "8080", "TCP port"},
	{"listen", "OW_LISTEN", T_STR, offsetof(srv_config, listen), 0, 0, NULL,
	 "address or interface to listen on (default: all)"},
	{"unix", "OW_UNIX", T_STR, offsetof(srv_config, net.unix_path), 0, 0, NULL,
	 "listen on this unix socket path instead of TCP"},
	{"web-root", "OW_WEB_ROOT", T_STR, offsetof(srv_config, net.web_root), 0, 0, NULL,
	 "folder of the static web client (default: PREFIX/share/oware-rooms/web "
	 "beside an installed owared, else ./web)"},
	{"db", "OW_DB", T_STR, offsetof(srv_config, db), 0, 0, "./data/oware.db", "SQLite database"},
	{"store", "OW_STORE", T_STR, offsetof(srv_config, store), 0, 0, NULL,
	 "sqlite:PATH, or postgresql://... (a libpq URI) for several servers on one"
	 " PostgreSQL database (default: sqlite: with --db)"},
	{"node-id", "OW_NODE_ID", T_STR, offsetof(srv_config, node_id), 0, 0, NULL,
	 "this server's name among several on one PostgreSQL, unique to it"
	 " (default: host name and port; with --port 0, host:0:PID)"},
	{"relay-address", "OW_RELAY_ADDRESS", T_STR, offsetof(srv_config, relay_address), 0, 0, NULL,
	 "PostgreSQL: HOST:PORT (an IP address) where the other servers reach this one to relay"
	 " their clients of its rooms (default: the --listen address, else 127.0.0.1, with"
	 " the port; none on a unix socket)"},
	{"lease-seconds", "OW_LEASE_SECONDS", T_INT, offsetof(srv_config, lease_seconds), 3, 600,
	 "10", "PostgreSQL: how long a server's hold on its rooms lasts unrenewed (renewed every"
	 " third of it); after a server dies, its rooms move within about this time"},
	{"log-level", "OW_LOG_LEVEL", T_STR, offsetof(srv_config, log_level), 0, 0, "info",
	 "error, warn, info or debug"},
	{"allow-origin", "OW_ALLOW_ORIGIN", T_STR, offsetof(srv_config, net.allow_origin), 0, 0, NULL,
	 "comma-separated WebSocket origins allowed besides the request's own host, or *"},
	{"metrics-from", "OW_METRICS_FROM", T_STR, offsetof(srv_config, net.metrics_from), 0, 0, NULL,
	 "comma-separated client addresses allowed to read /metrics, e.g. 127.0.0.1,::1 "
	 "(default: everyone)"},
	{"follow-links", "OW_FOLLOW_LINKS", T_BOOL, offsetof(srv_config, net.follow_links), 0, 1, "0",
	 "serve files through symbolic links that lead out of the web root"},
	{"trust-proxy", "OW_TRUST_PROXY", T_BOOL, offsetof(srv_config, net.trust_proxy), 0, 1, "0",
	 "take the client address from X-Forwarded-For"},
	{"push", "OW_PUSH", T_ONOFF, offsetof(srv_config, push.on), 0, 1, "on",
	 "Web Push (on or off): tell players of a room with a clock of days that it is their"
	 " move, through their browser's push service, even with the page closed (needs"
	 " outbound HTTPS to the services of --push-allow)"},
	{"push-contact", "OW_PUSH_CONTACT", T_STR, offsetof(srv_config, push.contact), 0, 0, NULL,
	 "Web Push: how a push service reaches this server's operator, a mailto: or https:"
	 " URL (VAPID's sub; default mailto:webmaster@ and the host name)"},
	{"push-allow", "OW_PUSH_ALLOW", T_STR, offsetof(srv_config, push.allow), 0, 0,
	 WEBPUSH_ALLOW_DEFAULT, "Web Push: comma-separated push services' host names a"
	 " subscription may name (*.x: any name ending in .x)"},
	{"push-per-hour", "OW_PUSH_PER_HOUR", T_INT, offsetof(srv_config, push.per_hour), 1, 3600,
	 "30", "Web Push: pushes sent to one subscription an hour at most"},
	{"push-subscribe-per-ip-per-min", "OW_PUSH_SUBSCRIBE_PER_IP_PER_MIN", T_INT,
	 offsetof(srv_config, rooms.push_per_ip_per_min), 1, 1000000, "10",
	 "Web Push: subscriptions sent from one client address a minute"},
	{"sync", "OW_SYNC", T_SYNC, offsetof(srv_config, sync_full), 0, 1, "full",
	 "SQLite synchronous mode: full (survives power loss) or normal"},
	{"abandon-seconds", "OW_ABANDON_SECONDS", T_MS, offsetof(srv_config, rooms.lim.abandon_ms),
	 1, 86400 * 30, "300", "absence on one's own turn before the opponent may claim"},
	{"max-message", "OW_MAX_MESSAGE", T_INT, offsetof(srv_config, net.max_message),
	 256, 1 << 20, "8192", "largest client message in bytes"},
	{"max-msgs-per-sec", "OW_MAX_MSGS_PER_SEC", T_INT, offsetof(srv_config, net.max_msgs_per_sec),
	 1, 100000, "20", "messages per second per connection"},
	{"max-conns-per-ip", "OW_MAX_CONNS_PER_IP", T_INT, offsetof(srv_config, net.max_conns_per_ip),
	 1, 1000000, "32", "WebSocket connections per client address"},
	{"max-sockets-per-ip", "OW_MAX_SOCKETS_PER_IP", T_INT, offsetof(srv_config, net.max_sockets_per_ip),
	 1, 1000000, "256", "connections of any kind (HTTP, idle or slow ones included) per client address"},
	{"rooms-per-ip-per-min", "OW_ROOMS_PER_IP_PER_MIN", T_INT,
	 offsetof(srv_config, ip.rooms_per_min), 1, 1000000, "20",
	 "rooms created per client address per minute"},
	{"joins-per-ip-per-min", "OW_JOINS_PER_IP_PER_MIN", T_INT,
	 offsetof(srv_config, ip.joins_per_min), 1, 1000000, "600",
	 "joins (as player or spectator) per client address per minute"},
	{"history-per-ip-per-min", "OW_HISTORY_PER_IP_PER_MIN", T_I64,
	 offsetof(srv_config, rooms.history_per_ip_per_min), 0, 1000000000, "1048576",
	 "bytes of chat history sent to a client address per minute (past them a join gets"
	 " only the newest lines that fit)"},
	{"max-rooms-per-ip", "OW_MAX_ROOMS_PER_IP", T_INT, offsetof(srv_config, rooms.max_rooms_per_ip),
	 1, 10000000, "100", "rooms created from one client address and still held"},
	{"max-rooms-per-net", "OW_MAX_ROOMS_PER_NET", T_INT, offsetof(srv_config, rooms.max_rooms_per_net),
	 1, 10000000, "400", "rooms created from one network (an IPv4 /24, an IPv6 /48) and still"
	 " held"},
	{"max-rooms", "OW_MAX_ROOMS", T_INT, offsetof(srv_config, rooms.max_rooms),
	 1, 10000000, "20000", "rooms held in total"},
	{"max-spectators", "OW_MAX_SPECTATORS", T_UINT, offsetof(srv_config, rooms.lim.max_spectators),
	 0, 100000, "50", "spectators per room"},
	{"max-queue", "OW_MAX_QUEUE", T_INT, offsetof(srv_config, net.max_queue),
	 2, 100000, "64", "outgoing messages queued per client before it is dropped"},
	{"max-connections", "OW_MAX_CONNECTIONS", T_INT, offsetof(srv_config, net.max_connections),
	 16, 1000000, "30000", "file descriptors for connections in total"},
	{"max-handshakes", "OW_MAX_HANDSHAKES", T_INT, offsetof(srv_config, net.max_handshakes),
	 1, 65535, "256", "connections whose request headers are read at once (16 KiB each);"
	 " more wait their turn"},
	{"ping-seconds", "OW_PING_SECONDS", T_INT, offsetof(srv_config, net.ping_seconds),
	 1, 3600, "30", "idle seconds before a ping"},
	{"hangup-seconds", "OW_HANGUP_SECONDS", T_INT, offsetof(srv_config, net.hangup_seconds),
	 2, 7200, "50", "idle seconds before hanging up"},
	{"expire-unfinished", "OW_EXPIRE_UNFINISHED", T_INT, offsetof(srv_config, rooms.expire_unfinished),
	 1, 2000000000, "2592000", "seconds an unfinished room may sit idle (default 30 days)"},
	{"expire-finished", "OW_EXPIRE_FINISHED", T_INT, offsetof(srv_config, rooms.expire_finished),
	 1, 2000000000, "604800", "seconds a finished room may sit idle (default 7 days)"},
	{"expire-unjoined", "OW_EXPIRE_UNJOINED", T_INT, offsetof(srv_config, rooms.expire_unjoined),
	 1, 2000000000, "86400", "seconds a room nobody joined (or an unfinished one whose game has"
	 " not started: fewer than 4 moves from each side) may sit idle (default 1 day)"},
	{"evict-idle", "OW_EVICT_IDLE", T_INT, offsetof(srv_config, rooms.evict_idle),
	 1, 2000000000, "21600", "seconds without a connection or a change after which a room"
	 " with a game may make way for a new one when --max-rooms is reached (default 6 hours)"},
	{"max-events", "OW_MAX_EVENTS", T_INT, offsetof(srv_config, events.max_events),
	 0, 100000, "500", "club events held in total (about 120 KB of memory each)"},
	{"max-events-per-ip", "OW_MAX_EVENTS_PER_IP", T_INT,
	 offsetof(srv_config, events.max_events_per_ip), 1, 100000, "20",
	 "club events created from one client address and still held"},
	{"max-events-per-net", "OW_MAX_EVENTS_PER_NET", T_INT,
	 offsetof(srv_config, events.max_events_per_net), 1, 1000000, "50",
	 "club events created from one network (an IPv4 /24, an IPv6 /48) and still held"},
	{"expire-events", "OW_EXPIRE_EVENTS", T_INT, offsetof(srv_config, events.expire_events),
	 1, 2000000000, "7776000", "seconds after its last change a club event is deleted"
	 " (default 90 days)"},
	{"max-event-followers", "OW_MAX_EVENT_FOLLOWERS", T_INT,
	 offsetof(srv_config, events.max_watchers), 1, 1000000, "500",
	 "connections following one club event"},
	{"event-views-per-ip-per-min", "OW_EVENT_VIEWS_PER_IP_PER_MIN", T_I64,
	 offsetof(srv_config, ip.views_per_min), 0, 100000000000L, "67108864",
	 "bytes of club events' views a client address is sent per minute in answer to"
	 " event_watch and to GET /api/events/... (past them both are refused: rate_limited,"
	 " 429); 0: no limit"},
	{"event-changes-per-min", "OW_EVENT_CHANGES_PER_MIN", T_INT,
	 offsetof(srv_config, events.changes_per_min), 0, 1000000, "300",
	 "changes an organiser makes to one club event per minute (results, corrections,"
	 " start, next round, finish; past them: rate_limited); 0: no limit"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static int set(srv_config *c, const struct opt *o, const char *v, const char *from)
{
	char *end;
	long n;

	switch (o->type) {
	case T_STR:
		*(const char **)((char *)c + o->off) = v && *v ? v : NULL;
		return 0;
	case T_BOOL:
		if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"))
			n = 1;
		else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no"))
			n = 0;
		else
			goto bad;
		*(int *)((char *)c + o->off) = (int)n;
		return 0;
	case T_SYNC:
		if (strcmp(v, "full") && strcmp(v, "normal"))
			goto bad;
		*(int *)((char *)c + o->off) = !strcmp(v, "full");
		return 0;
	case T_ONOFF:
		if (strcmp(v, "on") && strcmp(v, "off"))
			goto bad;
		*(int *)((char *)c + o->off) = !strcmp(v, "on");
		return 0;
	default:
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || end == v || *end || n < o->min || n > o->max)
			goto bad;
		if (o->type == T_UINT)
			*(unsigned *)((char *)c + o->off) = (unsigned)n;
		else if (o->type == T_I64)
			*(int64_t *)((char *)c + o->off) = n;
		else if (o->type == T_MS)
			*(int64_t *)((char *)c + o->off) = (int64_t)n * 1000;
		else
			*(int *)((char *)c + o->off) = (int)n;
		return 0;
	}
bad:
	fprintf(stderr, "owared: %s %s: bad value \"%s\"", from, o->flag, v);
	if (o->type >= T_INT)
		fprintf(stderr, " (an integer from %ld to %ld)", o->min, o->max);
	fprintf(stderr, "\n");
	return -1;
}

static void usage(void)
{
	printf("usage: owared [options]\n"
	       "Oware Rooms server: static web client and `oware.v1` WebSocket rooms.\n"
	       "Each option also reads the environment variable shown (flags win).\n\n");
	for (size_t i = 0; i < NOPTS; i++) {
		char left[64];

		snprintf(left, sizeof left, "--%s%s", opts[i].flag,
		         opts[i].type == T_BOOL ? "" : " V");
		printf("  %-26s %s [%s]%s%s\n", left, opts[i].help, opts[i].env,
		       opts[i].def ? " default " : "", opts[i].def ? opts[i].def : "");
	}
	printf("  %-26s this help\n", "--help");
}

/* --push-contact: given, or mailto:webmaster@ the host name. */
static int contact_check(srv_config *c)
{
	static char def[128];
	char host[64] = "";
	const char *s = c->push.contact;

	if (!s) {
		gethostname(host, sizeof host - 1);
		snprintf(def, sizeof def, "mailto:webmaster@%s", host[0] ? host : "localhost");
		c->push.contact = def;
		return 0;
	}
	if ((strncmp(s, "mailto:", 7) || !s[7]) && (strncmp(s, "https://", 8) || !s[8])) {
		fprintf(stderr, "owared: --push-contact: bad value (a mailto: or https: URL)\n");
		return -1;
	}
	for (; *s; s++)
		if (*s <= 0x20 || *s >= 0x7f || *s == '"' || *s == '\\') {
			fprintf(stderr, "owared: --push-contact: no spaces, quotes or backslashes\n");
			return -1;
		}
	return 0;
}

int config_load(srv_config *c, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < NOPTS; i++)
		if (opts[i].def && set(c, &opts[i], opts[i].def, "default") < 0)
			return -1;
	for (size_t i = 0; i < NOPTS; i++) {
		const char *v = getenv(opts[i].env);

		if (v && set(c, &opts[i], v, opts[i].env) < 0)
			return -1;
	}
	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a], *eq, *val = NULL;
		size_t n;
		size_t i;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			usage();
			return 1;
		}
		if (strncmp(arg, "--", 2)) {
			fprintf(stderr, "owared: unexpected argument \"%s\" (see --help)\n", arg);
			return -1;
		}
		arg += 2;
		eq = strchr(arg, '=');
		n = eq ? (size_t)(eq - arg) : strlen(arg);
		for (i = 0; i < NOPTS; i++)
			if (strlen(opts[i].flag) == n && !strncmp(opts[i].flag, arg, n))
				break;
		if (i == NOPTS) {
			fprintf(stderr, "owared: unknown option --%.*s (see --help)\n", (int)n, arg);
			return -1;
		}
		if (eq)
			val = eq + 1;
		else if (opts[i].type == T_BOOL)
			val = "1";
		else if (a + 1 < argc)
			val = argv[++a];
		else {
			fprintf(stderr, "owared: --%s needs a value\n", opts[i].flag);
			return -1;
		}
		if (set(c, &opts[i], val, "option") < 0)
			return -1;
	}
	if (!c->net.web_root)
		c->net.web_root = default_web_root();
	if (c->store && !strncmp(c->store, "sqlite:", 7) && c->store[7])
		c->db = c->store + 7;
	else if (c->store && (!strncmp(c->store, "postgresql://", 13) ||
	                      !strncmp(c->store, "postgres://", 11)))
		c->pg = c->store;
	else if (c->store) {
		fprintf(stderr, "owared: --store: bad value (sqlite:PATH or postgresql://...)\n");
		return -1;
	}
	if (c->net.hangup_seconds <= c->net.ping_seconds) {
		fprintf(stderr, "owared: --hangup-seconds must exceed --ping-seconds\n");
		return -1;
	}
	/* What no flag sets (a test build shortens the first two: main.c). */
	c->rooms.lim.day_ms = 86400000;
	c->rooms.chat_window_ms = ROOMS_CHAT_WINDOW_MS;
	/* A join is taken or relayed within the lease plus 3 s (TAKE_EXTRA_S). */
	c->rooms.join_wait_ms = ((int64_t)c->lease_seconds + 3) * 1000;
	c->events.join_wait_ms = c->rooms.join_wait_ms;
	c->events.make_way_s = 3600;
	c->rooms.push_allow = c->push.allow;
	return contact_check(c);
}
