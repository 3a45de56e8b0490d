# tests/pairing/: pair_trf, the Dutch pairing of server/rules/pair_dutch.c driven by
# a TRF file, and the comparison with bbpPairings (not in `make test`: it
# needs that program, which the repository does not ship).
$(BUILD)/pair_trf: $(BUILD)/tests/pairing/pair_trf.o $(BUILD)/server/rules/pairing.o \
	$(BUILD)/server/rules/pair_dutch.o $(BUILD)/server/rules/pair_match.o $(BUILD)/server/rules/trf.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^

# BBP=/path/to/bbpPairings.exe make compare-pairing [COMPARE_ARGS="..."]
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
	$(BUILD)/pair_sim --set all > $(BUILD)/pair_sim.out
	diff -u tests/pairing/sim.ref $(BUILD)/pair_sim.out && echo "check-pairing-sim: all rounds as recorded"
# In `make test` (about 20 s): the 1,722 rounds of 243 tournaments paired
# as recorded.
TESTS += check-pairing-sim

# bench-pairing (in `make bench`): the time to pair each recorded worst
# case at 256 players (tests/pairing/bench.sh), beside bbpPairings' on the
# same TRF when BBP names it (or it is on PATH). PAIR_BENCH_RUNS runs each.
.PHONY: bench-pairing
bench-pairing: $(BUILD)/pair_sim $(BUILD)/pair_trf
	sh tests/pairing/bench.sh $(BUILD)
BENCHES += bench-pairing
