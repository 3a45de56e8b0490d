# bench/: the load generator (build/owload), the store checker
# (build/owcheck), `make bench` (bench-load), `make soak`, and the crash
# test of `make test` (test-crash). See bench/README.md.
EXTRA_CFLAGS_bench := $(LWS_CFLAGS) $(SQLITE_CFLAGS)

# owload reads with bench/jscan, not jansson: of the protocol it links only
# the error codes.
$(BUILD)/owload: $(BUILD)/bench/owload.o $(BUILD)/bench/attack.o $(BUILD)/bench/hist.o \
		$(BUILD)/bench/jscan.o $(BUILD)/protocol/errors.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(LWS_LIBS)
$(BUILD)/owcheck: $(BUILD)/bench/owcheck.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(SQLITE_LIBS)
# The disk's own latency for a 4 KiB write and its sync, printed before
# each load table (bench/syncprobe.c).
$(BUILD)/syncprobe: $(BUILD)/bench/syncprobe.o $(BUILD)/bench/hist.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
ALL += $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/syncprobe

# Standard load: LOAD_ROOMS rooms of 2 players and LOAD_SPECT spectators
# each, paced at LOAD_RATE moves/s for LOAD_SECONDS after a 5 s ramp, the
# server's store in LOAD_SYNC mode (full: an fsync per commit batch).
LOAD_ROOMS ?= 3000
LOAD_RATE ?= 2000
LOAD_SECONDS ?= 60
LOAD_SPECT ?= 1
LOAD_SYNC ?= full
.PHONY: bench-load
bench-load: $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/owared $(BUILD)/syncprobe
	SERVER_ARGS="--sync $(LOAD_SYNC) $(SERVER_ARGS)" sh bench/run-load.sh bench $(BUILD) \
		--rooms $(LOAD_ROOMS) --rate $(LOAD_RATE) --duration $(LOAD_SECONDS) \
		--spectators $(LOAD_SPECT)
BENCHES += bench-load

# A club event's change at the scale of issue #49 (bench/event-change.mjs):
# a 256-player Swiss with 8 rounds played, 16 followers with players'
# tokens that stop reading: the server's CPU a change (alone, then with
# the followers), the memory a slow follower holds, the CPU an export.
.PHONY: bench-events
bench-events: $(BUILD)/owared $(NODE_DEPS)
	OWARED=$(BUILD)/owared node bench/event-change.mjs
BENCHES += bench-events

# Rooms of two players and no spectator, opened in one burst (--ramp 0):
# what one connection costs the server in memory when each room spreads
# over two connections only. Fails past LOAD_PAIRS_KIB per connection.
LOAD_PAIRS ?= 2000
LOAD_PAIRS_KIB ?= 4
.PHONY: bench-load-pairs
bench-load-pairs: $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/owared $(BUILD)/syncprobe
	MAX_CONN_KIB=$(LOAD_PAIRS_KIB) SERVER_ARGS="--sync $(LOAD_SYNC) $(SERVER_ARGS)" \
		sh bench/run-load.sh bench $(BUILD) --rooms $(LOAD_PAIRS) --rate $(LOAD_RATE) \
		--duration $(LOAD_SECONDS) --spectators 0 --ramp 0
BENCHES += bench-load-pairs

# Idle connections must not slow the playing rooms: LOAD_IDLE_ROOMS rooms of
# two players at LOAD_RATE moves/s (--sync normal: the disk's syncs out of
# the tail), first alone, then with LOAD_IDLE idle WebSocket connections
# held beside them by owload's other process (--idle: they join no room and
# answer pings). The two move->opponent lines are the figures to compare.
LOAD_IDLE_ROOMS ?= 2000
LOAD_IDLE ?= 14000
.PHONY: bench-load-idle
bench-load-idle: $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/owared $(BUILD)/syncprobe
	SERVER_ARGS="--sync normal $(SERVER_ARGS)" sh bench/run-load.sh bench $(BUILD) \
		--rooms $(LOAD_IDLE_ROOMS) --rate $(LOAD_RATE) --duration $(LOAD_SECONDS) --spectators 0
	SERVER_ARGS="--sync normal $(SERVER_ARGS)" sh bench/run-load.sh bench $(BUILD) \
		--rooms $(LOAD_IDLE_ROOMS) --rate $(LOAD_RATE) --duration $(LOAD_SECONDS) --spectators 0 \
		--idle $(LOAD_IDLE) --attack-sources 4
BENCHES += bench-load-idle

# The same load on one server whose store is a throwaway PostgreSQL
# (tests/cluster/with-pg.sh), durable as SQLite's full (every commit
# flushed to disk before it is answered; PG_DURABLE=0: without disk syncs,
# as the tests run it): what a move costs against SQLite. The server's CPU
# is owared's alone.
PG_DURABLE ?= 1
.PHONY: bench-load-pg
bench-load-pg: $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/owared $(BUILD)/syncprobe
	PGTMP_DURABLE=$(PG_DURABLE) sh tests/cluster/with-pg.sh sh -c 'SERVER_ARGS="--store $$OW_TEST_PG $(SERVER_ARGS)" \
		sh bench/run-load.sh bench $(BUILD) --rooms $(LOAD_ROOMS) --rate $(LOAD_RATE) \
		--duration $(LOAD_SECONDS) --spectators $(LOAD_SPECT)'
BENCHES += bench-load-pg

# The same total load on three owared sharing one PostgreSQL behind nginx
# with the shipped cluster upstream (bench/cluster-load.sh), PostgreSQL as
# durable as bench-load-pg's (PG_DURABLE): latency through
# nginx, the three servers' CPU together.
.PHONY: bench-load-pg3
bench-load-pg3: $(BUILD)/owload $(BUILD)/owared
	PGTMP_DURABLE=$(PG_DURABLE) sh tests/cluster/with-pg.sh sh bench/cluster-load.sh $(BUILD) --rooms $(LOAD_ROOMS) \
		--rate $(LOAD_RATE) --duration $(LOAD_SECONDS) --spectators $(LOAD_SPECT)
BENCHES += bench-load-pg3

# Soak: churn (games, drops with token reconnects, abandons, expiry) for
# SOAK_SECONDS, then RSS flatness and the store replayed by the engine.
SOAK_SECONDS ?= 600
soak: $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/owared
	sh bench/run-load.sh soak $(BUILD) --duration $(SOAK_SECONDS)

# Crash: kill -9 the server under load, restart it on the same store,
# everyone reconnects with tokens; no acknowledged move may be lost.
.PHONY: test-crash
test-crash: $(BUILD)/owload $(BUILD)/owcheck $(BUILD)/owared
	sh bench/run-load.sh crash $(BUILD)
TESTS += test-crash

# A Swiss of BENCH_PLAYERS (256) where white always wins, paired to
# BENCH_ROUNDS (9) while an unrelated room with a clock plays on
# (bench/pairing-stall.mjs): the worst pairing's time, and that room's
# move answer times during the pairings (p50, p99, max).
BENCH_PLAYERS ?= 256
BENCH_ROUNDS ?= 9
.PHONY: bench-pairing-stall
bench-pairing-stall: $(BUILD)/owared $(NODE_DEPS)
	BENCH_PLAYERS=$(BENCH_PLAYERS) BENCH_ROUNDS=$(BENCH_ROUNDS) OWARED=$(BUILD)/owared \
		node bench/pairing-stall.mjs
BENCHES += bench-pairing-stall
