# tests/unit/: every Check unit test, each a target test-<name> that
# `make test-unit` runs (and `make asan` again under the sanitizers):
# test-engine (engine/oware.h), test-togyz (engine/togyz.h), test-togyz_search
# (engine/togyz_search.h), test-search (engine/search.h; its source is
# tests/search/test_search.c), test-message (protocol/message.h and the
# server's SHA-256), test-rules (the room rules, server/rules.h), test-jscan (owload's in-place JSON reader, bench/jscan.h), test-text (names
# and chat lines, protocol/text.h, and their messages), test-study
# (engine/ogn.h and engine/analysis.h), test-log (the server's log lines,
# server/log.h), test-rooms (the rooms shell over a fake store and transport:
# relays, takes, a fenced batch, a lost lease, wanted rooms; server/rooms.h),
# test-pairing (Berger tables, the Dutch system and TRF files; server/pairing.h,
# server/trf.h, with known answers in tests/data/pairing/; the matching started
# again of server/pair_match.h against one from scratch), test-event (the
# rules of a club event, their standings and exports; server/event.h).
EXTRA_CFLAGS_tests := $(CHECK_CFLAGS) $(JANSSON_CFLAGS)

# Each test: the objects it links, and its libraries besides Check.
UNIT_NAMES := engine togyz togyz_search search message rules jscan text study log rooms pairing \
	event
UNIT_OBJ_engine := $(BUILD)/tests/unit/test_engine.o $(ENGINE_OBJ)
UNIT_OBJ_togyz := $(BUILD)/tests/unit/test_togyz.o $(ENGINE_OBJ)
UNIT_OBJ_togyz_search := $(BUILD)/tests/unit/test_togyz_search.o $(ENGINE_OBJ)
UNIT_OBJ_search := $(BUILD)/tests/search/test_search.o $(ENGINE_OBJ)
# test-search reads the endgame database of the normal build.
test-search: build/oware.egdb
UNIT_OBJ_message := $(BUILD)/tests/unit/test_message.o $(BUILD)/server/sha256.o \
	$(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_rules := $(BUILD)/tests/unit/test_rules.o $(BUILD)/server/rules.o \
	$(BUILD)/server/sha256.o $(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_study := $(BUILD)/tests/unit/test_study.o $(ENGINE_OBJ)
UNIT_OBJ_log := $(BUILD)/tests/unit/test_log.o $(BUILD)/server/log.o
UNIT_OBJ_rooms := $(BUILD)/tests/unit/test_rooms.o $(BUILD)/server/rooms.o \
	$(BUILD)/server/rooms_batch.o $(BUILD)/server/rooms_hold.o $(BUILD)/server/hold_wait.o $(BUILD)/server/rooms_query.o $(BUILD)/server/rooms_table.o \
	$(BUILD)/server/rules.o $(BUILD)/server/iptable.o $(BUILD)/server/log.o \
	$(BUILD)/server/sha256.o $(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_pairing := $(BUILD)/tests/unit/test_pairing.o $(BUILD)/server/pairing.o $(BUILD)/server/pair_dutch.o $(BUILD)/server/pair_match.o \
	$(BUILD)/server/trf.o
UNIT_OBJ_event := $(BUILD)/tests/unit/test_event.o $(BUILD)/server/event.o \
	$(BUILD)/server/pairing.o $(BUILD)/server/pair_dutch.o $(BUILD)/server/pair_match.o $(BUILD)/server/trf.o $(BUILD)/protocol/text.o
UNIT_OBJ_jscan := $(BUILD)/tests/unit/test_jscan.o $(BUILD)/bench/jscan.o
UNIT_OBJ_text := $(BUILD)/tests/unit/test_text.o $(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_LIBS_message := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_text := $(JANSSON_LIBS) $(ICU_LIBS)
UNIT_LIBS_event := $(ICU_LIBS)
UNIT_LIBS_rules := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_rooms := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS) $(UUID_LIBS)

define UNIT_TEST
$(BUILD)/test_$(1): $(UNIT_OBJ_$(1))
	$$(CC) $$(CFLAGS) $$(OW_LDFLAGS) -o $$@ $$^ $$(CHECK_LIBS) $(UNIT_LIBS_$(1))
.PHONY: test-$(1)
test-$(1): $(BUILD)/test_$(1)
	$(BUILD)/test_$(1)
UNIT_TESTS += test-$(1)
endef
$(foreach t,$(UNIT_NAMES),$(eval $(call UNIT_TEST,$(t))))
