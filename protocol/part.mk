# protocol/: JSON (read with jansson, written with jw) <-> checked C values. Links with the engine.
PROTO_SRC := protocol/errors.c
PROTO_SRC += protocol/game.c
PROTO_SRC += protocol/message.c
PROTO_SRC += protocol/jw.c
PROTO_SRC += protocol/text.c
PROTO_SRC += protocol/togyz.c
PROTO_SRC += protocol/kind.c
PROTO_OBJ = $(PROTO_SRC:%.c=$(BUILD)/%.o)
EXTRA_CFLAGS_protocol := $(JANSSON_CFLAGS) $(ICU_CFLAGS)
