# cli/: the `oware` command-line tool (build/oware).
CLI_SRC := cli/oware.c cli/cli.c cli/kind.c cli/game.c cli/best.c cli/study.c cli/puzzles.c
EXTRA_CFLAGS_cli := $(JANSSON_CFLAGS)

$(BUILD)/oware: $(CLI_SRC:%.c=$(BUILD)/%.o) $(PROTO_OBJ) $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(JANSSON_LIBS) $(ICU_LIBS)
ALL += $(BUILD)/oware

# The endgame database (engine/egdb.h): every board of up to EGDB_SEEDS
# seeds, by retrograde analysis (cli/egdb_gen.c), for the native tools
# ($(BUILD)/oware.egdb) and the web client (web/oware.egdb, web/part.mk).
EGDB_SEEDS ?= 12
$(BUILD)/egdb_gen: $(BUILD)/cli/egdb_gen.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
$(BUILD)/oware.egdb: $(BUILD)/egdb_gen
	$(BUILD)/egdb_gen $(EGDB_SEEDS) $@.tmp && mv $@.tmp $@
.PHONY: egdb
egdb: $(BUILD)/oware.egdb
ALL += $(BUILD)/oware.egdb
# Other builds (build/asan) use the normal build's database.
ifneq ($(BUILD),build)
.PHONY: build/oware.egdb
build/oware.egdb:
	$(MAKE) --no-print-directory BUILD=build build/oware.egdb
endif

.PHONY: test-cli
test-cli: $(BUILD)/oware $(BUILD)/oware.egdb
	EGDB=$(BUILD)/oware.egdb sh tests/cli/test_cli.sh $(BUILD)/oware
TESTS += test-cli

# The Togyz Kumalak commands (`--game togyz`), apart from test-cli.
.PHONY: test-cli-togyz
test-cli-togyz: $(BUILD)/oware
	sh tests/cli/test_togyz_cli.sh $(BUILD)/oware
TESTS += test-cli-togyz

# The puzzles the web client ships (`oware puzzles`, cli/puzzles.c): made
# by `make puzzles` from the game records of cli/records/ first, then from
# self-play (committed, as the same records and seed give the same files)
# and proved again by test-puzzles in `make test`.
PUZZLE_COUNT ?= 300
.PHONY: puzzles test-puzzles
puzzles: $(BUILD)/oware $(BUILD)/oware.egdb
	$(BUILD)/oware puzzles --count $(PUZZLE_COUNT) --egdb $(BUILD)/oware.egdb --records cli/records/oware.ogn >web/puzzles-oware.json.tmp
	mv web/puzzles-oware.json.tmp web/puzzles-oware.json
	$(BUILD)/oware puzzles --game togyz --count $(PUZZLE_COUNT) --records cli/records/togyz.txt >web/puzzles-togyz.json.tmp
	mv web/puzzles-togyz.json.tmp web/puzzles-togyz.json
test-puzzles: $(BUILD)/oware $(BUILD)/oware.egdb
	EGDB=$(BUILD)/oware.egdb sh tests/cli/test_puzzles.sh $(BUILD)/oware
TESTS += test-puzzles
