/* config.h: the server's settings, from command-line flags and OW_*
 * environment variables (flags win), with defaults. */
#ifndef SRV_CONFIG_H
#define SRV_CONFIG_H

#include "server/events/events.h"
#include "server/rooms/rooms.h"

typedef struct srv_config {
	int port;               /* --port, OW_PORT: TCP port (0: any free port) */
	const char *listen;     /* --listen, OW_LISTEN: address or interface; NULL: all */
	const char *unix_path;  /* --unix, OW_UNIX: listen on a unix socket instead */
	const char *web_root;   /* --web-root, OW_WEB_ROOT */
	const char *db;         /* --db, OW_DB; or the PATH of --store sqlite:PATH */
	const char *store;      /* --store, OW_STORE: sqlite:PATH or postgresql://... */
	const char *pg;         /* the PostgreSQL URI of --store, or NULL (SQLite) */
	const char *node_id;    /* --node-id, OW_NODE_ID */
	const char *relay_address; /* --relay-address, OW_RELAY_ADDRESS */
	int lease_seconds;      /* --lease-seconds, OW_LEASE_SECONDS */
	const char *log_level;  /* --log-level, OW_LOG_LEVEL */
	const char *allow_origin; /* --allow-origin, OW_ALLOW_ORIGIN: comma list or "*" */
	const char *metrics_from; /* --metrics-from, OW_METRICS_FROM: comma list; NULL: all */
	int follow_links;       /* --follow-links: serve links leading out of the web root */
	int trust_proxy;        /* --trust-proxy, OW_TRUST_PROXY */
	int sync_full;          /* --sync full|normal, OW_SYNC */
	int max_message;        /* --max-message: bytes */
	int max_msgs_per_sec;   /* --max-msgs-per-sec */
	int max_conns_per_ip;   /* --max-conns-per-ip: WebSockets */
	int max_sockets_per_ip; /* --max-sockets-per-ip: connections of any kind */
	int max_queue;          /* --max-queue: outgoing messages per client */
	int max_connections;    /* --max-connections: in total */
	int max_handshakes;     /* --max-handshakes: request headers read at once */
	int ping_seconds;       /* --ping-seconds: idle before a ping */
	int hangup_seconds;     /* --hangup-seconds: idle before hanging up */
	rooms_config rooms;     /* the rooms' settings, handed to rooms_init whole:
	                         * --abandon-seconds, --max-spectators, --max-rooms,
	                         * --max-rooms-per-ip, --rooms-per-ip-per-min,
	                         * --joins-per-ip-per-min, --history-per-ip-per-min,
	                         * --expire-*, --evict-idle; the join wait from
	                         * --lease-seconds */
	events_config events;   /* club events: --max-events, --max-events-per-ip,
	                         * --expire-events, --max-event-followers (the
	                         * per-address rates are the rooms') */
} srv_config;

/* Fills *c from defaults, then the environment, then argv. Returns 0; 1
 * after printing --help (exit 0); -1 after printing an error to stderr. */
int config_load(srv_config *c, int argc, char **argv);

#endif
