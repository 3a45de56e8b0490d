# tests/pairing/: pair_trf, the Dutch pairing of server/rules/pair_dutch.c driven by
# a TRF file, and the comparison with bbpPairings (not in `make test`: it
# needs that program, which the repository does not ship).
$(BUILD)/pair_trf: $(BUILD)/tests/pairing/pair_trf.o $(BUILD)/server/rules/pairing.o \
	$(BUILD)/server/rules/pair_dutch.o $(BUILD)/server/rules/pair_match.o $(BUILD)/server/rules/trf.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^

# BBP=/path/to/bbpPairings.exe make compare-pairing [COMPARE_ARGS="--rules 2017 ..."]
.PHONY: compare-pairing
compare-pairing: $(BUILD)/pair_trf
	sh tests/pairing/compare.sh $(BUILD)/pair_trf $(COMPARE_ARGS)

# pair_sim: deterministic random tournaments paired round by round, one
# line (a hash of the boards) per round. check-pairing-sim compares the
# quick set and the worst cases with tests/pairing/sim.ref, recorded from
# the code as it paired when the file was made: a change that must not
# change a pairing (a refactoring, a speed-up) must leave it equal.
$(BUILD)/pair_sim: $(BUILD)/tests/pairing/pair_sim.o $(BUILD)/server/rules/pairing.o $(BUILD)/server/rules/pair_dutch.o $(BUILD)/server/rules/pair_match.o $(BUILD)/server/rules/trf.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^

.PHONY: check-pairing-sim
check-pairing-sim: $(BUILD)/pair_sim
	$(BUILD)/pair_sim --rules 2017 --set all > $(BUILD)/pair_sim-2017.out
	diff -u tests/pairing/sim-2017.ref $(BUILD)/pair_sim-2017.out
	$(BUILD)/pair_sim --rules 2025 --set all > $(BUILD)/pair_sim-2025.out
	diff -u tests/pairing/sim-2025.ref $(BUILD)/pair_sim-2025.out && echo "check-pairing-sim: all rounds as recorded"
# In `make test` (about 40 s): the 1,722 rounds of 243 tournaments paired
# as recorded under the 2017 rules, and as many under the 2025 rules.
TESTS += check-pairing-sim

# pair_diff: the differential test. tests/pairing/diff/trf.tar.gz holds
# 200 tournaments (pair_sim --set diff), ref-2017.txt and ref-2025.txt the
# pairings bbpPairings 5.0.1 and its dutch-2025 branch made of each of
# their rounds (tests/pairing/diff-refs.sh makes them again); every round
# paired by pair_dutch under each rules must be the same.
$(BUILD)/pair_diff: $(BUILD)/tests/pairing/pair_diff.o $(BUILD)/server/rules/pairing.o $(BUILD)/server/rules/pair_dutch.o $(BUILD)/server/rules/pair_match.o $(BUILD)/server/rules/trf.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^

.PHONY: check-pairing-diff pairing-diff-refs
check-pairing-diff: $(BUILD)/pair_diff
	rm -rf $(BUILD)/pairing-diff && mkdir -p $(BUILD)/pairing-diff
	tar -C $(BUILD)/pairing-diff -xzf tests/pairing/diff/trf.tar.gz
	$(BUILD)/pair_diff --rules 2017 tests/pairing/diff/ref-2017.txt $(BUILD)/pairing-diff/t*.trf
	$(BUILD)/pair_diff --rules 2025 tests/pairing/diff/ref-2025.txt $(BUILD)/pairing-diff/t*.trf
TESTS += check-pairing-diff

# make pairing-diff-refs [DIFF_ARGS="--trf" or "--wide FROM COUNT"] [BBP=... BBP2025=...]
pairing-diff-refs: $(BUILD)/pair_sim $(BUILD)/pair_diff
	sh tests/pairing/diff-refs.sh $(BUILD) $(DIFF_ARGS)

# bench-pairing (in `make bench`): the time to pair each recorded worst
# case at 256 players under each rules (tests/pairing/bench.sh), beside bbpPairings' on the
# same TRF when BBP (2017) and BBP2025 (its dutch-2025 build) name it.
# PAIR_BENCH_RUNS runs each; PAIR_BENCH_CASES, _ROUNDS, _RULES choose fewer.
.PHONY: bench-pairing
bench-pairing: $(BUILD)/pair_sim $(BUILD)/pair_trf
	sh tests/pairing/bench.sh $(BUILD)
BENCHES += bench-pairing
