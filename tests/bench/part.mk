# tests/bench/: the engine's benchmark programs (tests/bench/*.c, built
# against ENGINE_OBJ of engine/part.mk) and their `make bench` targets:
# perft (Oware and Togyz Kumalak), the two searches' depth and speed, the
# levels' matches, today's hard against an older one, and the fit of the
# evaluation (eval-fit). The server's load benchmarks are in bench/part.mk.

$(BUILD)/bench_perft: $(BUILD)/tests/bench/bench_perft.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-perft
bench-perft: $(BUILD)/bench_perft
	$(BUILD)/bench_perft 11
BENCHES += bench-perft

# Togyz Kumalak perft: speed, and the deep counts of tests/data/togyz-perft.txt.
$(BUILD)/bench_perft_togyz: $(BUILD)/tests/bench/bench_perft_togyz.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-perft-togyz
bench-perft-togyz: $(BUILD)/bench_perft_togyz
	$(BUILD)/bench_perft_togyz 9
BENCHES += bench-perft-togyz

# Togyz Kumalak levels against each other (tests/bench/bench_togyz_match.c).
$(BUILD)/bench_togyz_match: $(BUILD)/tests/bench/bench_togyz_match.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
.PHONY: bench-togyz-match
bench-togyz-match: $(BUILD)/bench_togyz_match
	$(BUILD)/bench_togyz_match 40 100000
BENCHES += bench-togyz-match

# Togyz Kumalak search: depth and speed in 1 s, native and wasm under node.
.PHONY: bench-togyz-search
bench-togyz-search: $(BUILD)/oware web/togyz-ai.wasm
	OWARE=$(BUILD)/oware TOGYZ_AI_WASM=web/togyz-ai.wasm node tests/bench/bench_togyz_search.mjs
BENCHES += bench-togyz-search

# Oware's search (engine/search.h): depth and speed in 1 s from the start
# (native, and wasm under node), and the match table of the levels (hard limited to 100k nodes a
# move to keep `make bench` near a minute; see tests/bench/bench_match.c).
$(BUILD)/bench_search: $(BUILD)/tests/bench/bench_search.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
$(BUILD)/bench_match: $(BUILD)/tests/bench/bench_match.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^
BENCH_WASM_SRC := $(ENGINE_SRC) web/wasm/search_exports.c tests/bench/wasm_search.c
$(BUILD)/bench_search.wasm: $(BENCH_WASM_SRC) $(wildcard engine/*.h)
	@mkdir -p $(dir $@)
	clang-14 --target=wasm32 -std=c11 -O2 -nostdlib -mbulk-memory $(WARN) -I. \
		-fuse-ld=lld -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=1048576 \
		-o $@ $(BENCH_WASM_SRC)

# Today's hard against the hard of PREV_COMMIT (the commit before issue 18's
# work): that commit's engine, from `git show` into $(BUILD)/prev/, linked
# with tests/bench/prev_hard.c into one object whose only globals are its
# prev_ functions (objcopy), so that it sits beside today's engine.
PREV_COMMIT ?= 2da48439c2ac129c3856ddfaeebb041b425fd951
PREV_FILES := engine/oware.h engine/oware_internal.h engine/mancala.h engine/search.h \
	engine/oware.c engine/search.c
PREV_DIR := $(BUILD)/prev/$(PREV_COMMIT)
$(PREV_DIR)/prev.o: tests/bench/prev_hard.c
	@mkdir -p $(PREV_DIR)/engine
	for f in $(PREV_FILES); do git show $(PREV_COMMIT):$$f >$(PREV_DIR)/$$f || exit 1; done
	for f in engine/oware.c engine/search.c tests/bench/prev_hard.c; do \
		$(CC) -std=c11 -O2 -I$(PREV_DIR) -c -o $(PREV_DIR)/$$(basename $$f .c).o \
			$$(case $$f in tests/*) echo $$f;; *) echo $(PREV_DIR)/$$f;; esac) || exit 1; \
	done
	ld -r -o $(PREV_DIR)/all.o $(PREV_DIR)/prev_hard.o $(PREV_DIR)/oware.o $(PREV_DIR)/search.o
	objcopy -w --keep-global-symbol='prev_*' $(PREV_DIR)/all.o $@
$(BUILD)/tests/bench/bench_versus.o: EXTRA_CFLAGS_tests += -DPREV_NAME='"$(shell echo $(PREV_COMMIT) | cut -c1-7)"'
$(BUILD)/bench_versus: $(BUILD)/tests/bench/bench_versus.o $(BUILD)/tests/bench/egdb_load.o \
		$(PREV_DIR)/prev.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ -lm

# The evaluation's table fitted to deeper searches (tests/bench/eval_fit.c).
$(BUILD)/eval_fit: $(BUILD)/tests/bench/eval_fit.o $(BUILD)/tests/bench/egdb_load.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ -lm
FIT_GAMES ?= 1200
FIT_DEPTH ?= 12
.PHONY: eval-fit
eval-fit: $(BUILD)/eval_fit $(BUILD)/oware.egdb
	OW_EGDB=$(BUILD)/oware.egdb nice $(BUILD)/eval_fit $(FIT_GAMES) $(FIT_DEPTH) 2

.PHONY: bench-search bench-search-wasm bench-match bench-versus bench-versus-time
bench-search: $(BUILD)/bench_search
	$(BUILD)/bench_search 1000 10000000
bench-search-wasm: $(BUILD)/bench_search.wasm
	node tests/bench/bench_search.mjs $(BUILD)/bench_search.wasm 1000
bench-match: $(BUILD)/bench_match
	$(BUILD)/bench_match 100 100000
# Today's hard against PREV_COMMIT's (tests/bench/bench_versus.c), both
# with the endgame database of the build where today's can use it: 200
# games at a fixed node budget, and 200 at 1 s a move (both sides; about
# 2.5 hours on 2 cores: VERSUS_JOBS processes, niced).
VERSUS_GAMES ?= 200
VERSUS_NODES ?= 100000
VERSUS_MS ?= 1000
VERSUS_JOBS ?= 2
bench-versus: $(BUILD)/bench_versus $(BUILD)/oware.egdb
	OW_EGDB=$(BUILD)/oware.egdb nice $(BUILD)/bench_versus $(VERSUS_GAMES) $(VERSUS_NODES) $(VERSUS_JOBS)
bench-versus-time: $(BUILD)/bench_versus $(BUILD)/oware.egdb
	OW_EGDB=$(BUILD)/oware.egdb nice $(BUILD)/bench_versus $(VERSUS_GAMES) $(VERSUS_MS)ms $(VERSUS_JOBS)
BENCHES += bench-search bench-search-wasm bench-match bench-versus bench-versus-time

# The ladder of levels (issue 33, tests/bench/bench_ladder.c): each level
# against its neighbour above, the lowest against a random and a greedy
# player, both games; the Elo ladder with 95% intervals. LADDER_GAMES a
# pairing, LADDER_TOP_GAMES for hard's (the slow one), LADDER_JOBS
# processes (niced), LADDER_HARD_NODES (0: hard's own 2,000,000 nodes).
# For calibration the environment's LADDER_STEP<n> and LADDER_ONLY
# (docs/computer.md, "The ladder of levels").
LADDER_GAMES ?= 200
LADDER_TOP_GAMES ?= $(LADDER_GAMES)
LADDER_JOBS ?= 2
LADDER_HARD_NODES ?= 0
$(BUILD)/bench_ladder: $(BUILD)/tests/bench/bench_ladder.o $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ -lm
.PHONY: bench-ladder
bench-ladder: $(BUILD)/bench_ladder
	nice -n 19 $(BUILD)/bench_ladder oware $(LADDER_GAMES) $(LADDER_TOP_GAMES) $(LADDER_JOBS) $(LADDER_HARD_NODES)
	nice -n 19 $(BUILD)/bench_ladder togyz $(LADDER_GAMES) $(LADDER_TOP_GAMES) $(LADDER_JOBS) $(LADDER_HARD_NODES)
BENCHES += bench-ladder

# The time of one move of each level below hard in the browser's engine
# (tests/bench/bench_ladder_time.mjs): the wasm modules under node (CPU
# time, times 4 and 6 for a phone-class device) and in headless Chromium
# with the page's CPU throttled x4 and x6 (docs/computer.md, "The ladder
# of levels").
.PHONY: bench-ladder-time
bench-ladder-time: web/ai.wasm web/togyz-ai.wasm $(BUILD)/oware.egdb $(NODE_DEPS)
	OW_EGDB=$(BUILD)/oware.egdb AI_WASM=web/ai.wasm TOGYZ_AI_WASM=web/togyz-ai.wasm \
		nice node tests/bench/bench_ladder_time.mjs
BENCHES += bench-ladder-time
