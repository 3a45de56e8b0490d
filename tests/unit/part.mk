# tests/unit/: every Check unit test, each a target test-<name> that
# `make test-unit` runs (and `make asan` again under the sanitizers):
# test-engine (engine/oware.h), test-togyz (engine/togyz.h), test-togyz_search
# (engine/togyz_search.h), test-search (engine/search.h; its source is
# tests/search/test_search.c), test-message (protocol/message.h and the
# server's SHA-256), test-rules (the room rules, server/rules/rules.h), test-jscan (owload's in-place JSON reader, bench/jscan.h), test-text (names
# and chat lines, protocol/text.h, and their messages), test-study
# (engine/ogn.h and engine/analysis.h), test-log (the server's log lines,
# server/base/log.h), test-rooms (the rooms shell over a fake store and transport:
# relays, takes, a fenced batch, a lost lease, wanted rooms; server/rooms/rooms.h),
# test-pairing (Berger tables, the Dutch system and TRF files; server/rules/pairing.h,
# server/rules/trf.h, with known answers in tests/data/pairing/; the matching started
# again of server/rules/pair_match.h against one from scratch), test-event (the
# rules of a club event, their standings and exports; server/rules/event.h),
# test-tiebreak (the FIDE tie-breaks of 2024 against the worked examples of the
# FIDE Arbiters' Commission's tie-break exercises; server/rules/event.h),
# test-webpush (Web Push's cryptography against the RFCs' worked examples,
# server/base/webpush.h).
EXTRA_CFLAGS_tests := $(CHECK_CFLAGS) $(JANSSON_CFLAGS) $(ICU_CFLAGS)

# Each test: the objects it links, and its libraries besides Check.
UNIT_NAMES := engine togyz togyz_search search message rules jscan text study log rooms pairing \
	event tiebreak webpush
UNIT_OBJ_engine := $(BUILD)/tests/unit/test_engine.o $(ENGINE_OBJ)
UNIT_OBJ_togyz := $(BUILD)/tests/unit/test_togyz.o $(ENGINE_OBJ)
UNIT_OBJ_togyz_search := $(BUILD)/tests/unit/test_togyz_search.o $(ENGINE_OBJ)
UNIT_OBJ_search := $(BUILD)/tests/search/test_search.o $(ENGINE_OBJ)
# test-search reads the endgame database of the normal build.
test-search: build/oware.egdb
UNIT_OBJ_message := $(BUILD)/tests/unit/test_message.o $(BUILD)/server/base/sha256.o \
	$(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_rules := $(BUILD)/tests/unit/test_rules.o $(BUILD)/server/rules/rules.o \
	$(BUILD)/server/base/sha256.o $(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_study := $(BUILD)/tests/unit/test_study.o $(ENGINE_OBJ)
UNIT_OBJ_log := $(BUILD)/tests/unit/test_log.o $(BUILD)/server/base/log.o
UNIT_OBJ_rooms := $(BUILD)/tests/unit/test_rooms.o $(BUILD)/server/rooms/rooms.o \
	$(BUILD)/server/rooms/rooms_batch.o $(BUILD)/server/rooms/rooms_hold.o $(BUILD)/server/rooms/hold_wait.o $(BUILD)/server/rooms/rooms_query.o $(BUILD)/server/rooms/rooms_push.o $(BUILD)/server/rooms/rooms_table.o $(BUILD)/server/base/webpush.o \
	$(BUILD)/server/rules/rules.o $(BUILD)/server/base/iptable.o $(BUILD)/server/base/log.o \
	$(BUILD)/server/base/sha256.o $(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_pairing := $(BUILD)/tests/unit/test_pairing.o $(BUILD)/server/rules/pairing.o \
	$(BUILD)/server/rules/pair_dutch.o $(BUILD)/server/rules/pair_match.o \
	$(BUILD)/server/rules/trf.o
UNIT_OBJ_event := $(BUILD)/tests/unit/test_event.o $(BUILD)/server/rules/event.o \
	$(BUILD)/server/rules/pairing.o $(BUILD)/server/rules/pair_dutch.o \
	$(BUILD)/server/rules/pair_match.o $(BUILD)/server/rules/trf.o $(BUILD)/protocol/text.o
UNIT_OBJ_tiebreak := $(BUILD)/tests/unit/test_tiebreak.o $(BUILD)/server/rules/event.o \
	$(BUILD)/server/rules/pairing.o $(BUILD)/server/rules/pair_dutch.o \
	$(BUILD)/server/rules/pair_match.o $(BUILD)/server/rules/trf.o $(BUILD)/protocol/text.o
UNIT_OBJ_jscan := $(BUILD)/tests/unit/test_jscan.o $(BUILD)/bench/jscan.o
UNIT_OBJ_text := $(BUILD)/tests/unit/test_text.o $(PROTO_OBJ) $(ENGINE_OBJ)
UNIT_OBJ_webpush := $(BUILD)/tests/unit/test_webpush.o $(BUILD)/server/base/webpush.o
UNIT_LIBS_message := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_text := $(JANSSON_LIBS) $(ICU_LIBS)
UNIT_LIBS_event := $(ICU_LIBS)
UNIT_LIBS_tiebreak := $(ICU_LIBS)
UNIT_LIBS_rules := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_webpush := $(JANSSON_LIBS) $(CRYPTO_LIBS)
UNIT_LIBS_rooms := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS) $(UUID_LIBS)

# Check's timeouts only catch a test that hangs: its default of 4 s ran
# out on a loaded two-core machine (several tests take a second or two
# under the sanitizers), so a case with no timeout of its own gets 60 s.
define UNIT_TEST
$(BUILD)/test_$(1): $(UNIT_OBJ_$(1))
	$$(CC) $$(CFLAGS) $$(OW_LDFLAGS) -o $$@ $$^ $$(CHECK_LIBS) $(UNIT_LIBS_$(1))
.PHONY: test-$(1)
test-$(1): $(BUILD)/test_$(1)
	CK_DEFAULT_TIMEOUT=$$$${CK_DEFAULT_TIMEOUT:-60} $(BUILD)/test_$(1)
UNIT_TESTS += test-$(1)
endef
$(foreach t,$(UNIT_NAMES),$(eval $(call UNIT_TEST,$(t))))
