# server/: owared, the room server (static files + `oware.v1` WebSocket rooms).
SERVER_SRC := server/main.c server/config.c \
	server/net/net.c server/net/conn.c server/net/respond.c server/net/relay.c server/net/http.c server/net/gate.c \
	server/net/api_rooms.c server/net/files.c server/net/metrics.c server/net/push.c \
	server/events/events.c server/events/events_hold.c server/events/events_pair.c \
	server/rooms/rooms.c server/rooms/rooms_batch.c server/rooms/rooms_hold.c \
	server/rooms/hold_wait.c server/rooms/rooms_query.c server/rooms/rooms_push.c \
	server/rooms/rooms_table.c \
	server/store/store_sqlite.c server/store/store_pg.c server/store/pg.c server/store/fault.c \
	server/rules/rules.c server/rules/event.c server/rules/pairing.c server/rules/trf.c \
	server/rules/pair_dutch.c server/rules/pair_match.c \
	server/base/iptable.c server/base/log.c server/base/sha256.c server/base/reasm.c \
	server/base/webpush.c
EXTRA_CFLAGS_server := $(JANSSON_CFLAGS) $(LWS_CFLAGS) $(SQLITE_CFLAGS) $(UUID_CFLAGS) $(PQ_CFLAGS)

$(BUILD)/owared: $(SERVER_SRC:%.c=$(BUILD)/%.o) $(PROTO_OBJ) $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -pthread -o $@ $^ $(LWS_LIBS) $(SQLITE_LIBS) $(PQ_LIBS) $(UUID_LIBS) $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS)
ALL += $(BUILD)/owared

# `make run`: build, then serve ./web and the rooms on http://localhost:8080
# with the store in ./data/ (the defaults; OW_* variables or ARGS="--flag v"
# change them).
run: build-all
	@mkdir -p data
	$(BUILD)/owared $(ARGS)
