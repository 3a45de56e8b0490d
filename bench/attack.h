/* attack.h: owload's attackers (--attack-pings, --attack-churn,
 * --attack-slow, --attack-chat, --attack-trickle, --attack-history,
 * --attack-silent), and
 * its idle connections (--idle), which are no attack but live alike: raw
 * non-blocking sockets with hand-made upgrades and
 * masked frames on one libev loop of their own, apart from the players, so
 * that what they do (never read, read late, close at once) is theirs to
 * decide and their failures never count as the players'. */
#ifndef BENCH_ATTACK_H
#define BENCH_ATTACK_H

#include <stdint.h>

/* ATK_IDLE: upgraded connections that join no room, say nothing and
 * answer the server's pings, held from the ramp on (the others start with
 * the steady phase). */
enum { ATK_PING, ATK_CHURN, ATK_SLOW, ATK_CHAT, ATK_TRICKLE, ATK_HISTORY, ATK_SILENT, ATK_IDLE,
       ATK_KINDS };

/* Counters per kind of attacker. */
enum {
	AS_UPGRADED,     /* upgrades answered 101 */
	AS_FAILED,       /* connects refused, upgrades not answered 101 */
	AS_WELCOMED,     /* joins answered with a welcome */
	AS_RATE_LIMITED, /* answered rate_limited */
	AS_OTHER_ERR,    /* answered with another error code */
	AS_FLOOD,        /* closed by the server: 1008 "message flood" */
	AS_SLOW,         /* 1008 "too slow" */
	AS_IDLE,         /* 1008 "idle" */
	AS_1008,         /* 1008, another reason */
	AS_OTHER_CODE,   /* another close code */
	AS_NO_CLOSE,     /* the socket ended with no close frame read */
	AS_BYTES_TX,     /* bytes written after the upgrade */
	AS_BYTES_RX,     /* bytes read after the upgrade (or the request) */
	AS_CHAT_OK,      /* chat: lines the server sent back; history: histories read */
	AS_ANSWERED,     /* trickle: requests answered (any HTTP answer) */
	AS_CUT,          /* trickle, silent: connections the server closed unanswered */
	AS_HELD,         /* trickle, silent: still open after TRICKLE_GIVE_UP */
	AS_FIELDS
};

/* Plain counters, zero-initialised, filled by the attackers' process in
 * pages it shares with owload's parent. */
typedef struct atk_stats {
	uint64_t v[ATK_KINDS][AS_FIELDS];
} atk_stats;

/* What the attackers need; read-only while they run. */
typedef struct atk_config {
	const char *host;       /* IPv4 address of the server */
	int port;
	const char *path;       /* the WebSocket path, e.g. /ws */
	int n[ATK_KINDS];       /* connections of each kind */
	int first_src, nsrc;    /* each kind uses its own nsrc source addresses,
	                         * 127.0.0.first_src + kind * nsrc + i */
	double pause_ms;        /* before reconnecting after a close or refusal */
	const char (*ids)[40];  /* room ids the players publish ("" when none) */
	int nids;
	int (*done)(void);      /* polled every 50 ms: nonzero to stop */
	int (*steady)(void);    /* nonzero once the kinds but ATK_IDLE may start */
} atk_config;

/* Runs the attackers until cfg->done() returns nonzero, then closes every
 * socket. Returns 0, or -1 when the loop could not be made or the host is
 * not an IPv4 address (said on stderr). */
int atk_run(const atk_config *cfg, atk_stats *st);

#endif
