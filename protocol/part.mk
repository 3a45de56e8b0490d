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

# The words a name may not read as, made from the page's language files
# (web/i18n/): protocol/text_words.h for protocol/text.c, web/name-words.js
# for the client. Both are committed; run `make words` after changing a
# language file (test-web fails while they are stale).
.PHONY: words
words:
	node protocol/gen_words.mjs
