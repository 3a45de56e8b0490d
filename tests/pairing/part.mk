# tests/pairing/: pair_trf, the Dutch pairing of server/rules/pairing.c driven by
# a TRF file, and the comparison with bbpPairings (not in `make test`: it
# needs that program, which the repository does not ship).
$(BUILD)/pair_trf: $(BUILD)/tests/pairing/pair_trf.o $(BUILD)/server/rules/pairing.o $(BUILD)/server/rules/trf.o
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^

# BBP=/path/to/bbpPairings.exe make compare-pairing [COMPARE_ARGS="..."]
.PHONY: compare-pairing
compare-pairing: $(BUILD)/pair_trf
	sh tests/pairing/compare.sh $(BUILD)/pair_trf $(COMPARE_ARGS)
