# server/: owared, the room server (static files + `oware.v1` WebSocket rooms).
SERVER_SRC := server/main.c server/net.c server/room.c server/store.c \
	server/config.c server/iptable.c server/log.c server/sha256.c server/fault.c
LWS_CFLAGS := $(shell pkg-config --cflags libwebsockets 2>/dev/null)
LWS_LIBS := $(shell pkg-config --libs libwebsockets 2>/dev/null) -lev
SQLITE_CFLAGS := $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null)
UUID_CFLAGS := $(shell pkg-config --cflags uuid 2>/dev/null)
UUID_LIBS := $(shell pkg-config --libs uuid 2>/dev/null)
EXTRA_CFLAGS_server := $(JANSSON_CFLAGS) $(LWS_CFLAGS) $(SQLITE_CFLAGS) $(UUID_CFLAGS)

$(BUILD)/owared: $(SERVER_SRC:%.c=$(BUILD)/%.o) $(PROTO_OBJ) $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -pthread -o $@ $^ $(LWS_LIBS) $(SQLITE_LIBS) $(UUID_LIBS) $(JANSSON_LIBS)
ALL += $(BUILD)/owared

# `make run`: build, then serve ./web and the rooms on http://localhost:8080
# with the store in ./data/ (the defaults; OW_* variables or ARGS="--flag v"
# change them).
run: build-all
	@mkdir -p data
	$(BUILD)/owared $(ARGS)
