# server/: owared, the room server (static files + `oware.v1` WebSocket rooms).
SERVER_SRC := server/main.c server/net.c server/relay.c server/http.c server/gate.c server/api_rooms.c server/files.c server/metrics.c server/rooms.c server/rooms_batch.c server/rooms_hold.c server/hold_wait.c server/rooms_query.c server/rooms_table.c server/rules.c server/events.c server/events_hold.c server/event.c server/pairing.c server/pair_dutch.c server/pair_match.c server/trf.c server/store_sqlite.c server/store_pg.c server/pg.c \
	server/config.c server/iptable.c server/log.c server/sha256.c server/fault.c server/reasm.c
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
