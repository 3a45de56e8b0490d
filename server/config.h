/* config.h: the server's settings, from command-line flags and OW_*
 * environment variables (flags win), with defaults. */
#ifndef SRV_CONFIG_H
#define SRV_CONFIG_H

#include "server/events/events.h"
#include "server/net/push.h"
#include "server/net/conn.h"
#include "server/rooms/rooms.h"

typedef struct srv_config {
	net_config net;         /* the transport's: --unix, --web-root, --allow-origin,
	                         * --metrics-from, --follow-links, --trust-proxy,
	                         * --max-message ... --max-handshakes, --ping-seconds,
	                         * --hangup-seconds (net/conn.h) */
	int port;               /* --port, OW_PORT: TCP port (0: any free port) */
	const char *listen;     /* --listen, OW_LISTEN: address or interface; NULL: all */
	const char *db;         /* --db, OW_DB; or the PATH of --store sqlite:PATH */
	const char *store;      /* --store, OW_STORE: sqlite:PATH or postgresql://... */
	const char *pg;         /* the PostgreSQL URI of --store, or NULL (SQLite) */
	const char *node_id;    /* --node-id, OW_NODE_ID */
	const char *relay_address; /* --relay-address, OW_RELAY_ADDRESS */
	int lease_seconds;      /* --lease-seconds, OW_LEASE_SECONDS */
	const char *log_level;  /* --log-level, OW_LOG_LEVEL */
	int sync_full;          /* --sync full|normal, OW_SYNC */
	ip_budgets ip;          /* an address's budgets a minute, which the rooms,
	                         * the events and the transport charge (each of
	                         * their configs points here): --rooms-per-ip-per-min,
	                         * --joins-per-ip-per-min, --event-views-per-ip-per-min */
	rooms_config rooms;     /* the rooms' settings, handed to rooms_init whole:
	                         * --abandon-seconds, --max-spectators, --max-rooms,
	                         * --max-rooms-per-ip, --history-per-ip-per-min,
	                         * --expire-*, --evict-idle; the join wait from
	                         * --lease-seconds */
	push_config push;       /* Web Push: --push, --push-contact, --push-allow,
	                         * --push-per-hour (net/push.h); the rooms' part is
	                         * rooms.push_* (--push-subscribe-per-ip-per-min) */
	events_config events;   /* club events: --max-events, --max-events-per-ip,
	                         * --expire-events, --max-event-followers ... */
} srv_config;

/* Fills *c from defaults, then the environment, then argv. Returns 0; 1
 * after printing --help (exit 0); -1 after printing an error to stderr. */
int config_load(srv_config *c, int argc, char **argv);

#endif
