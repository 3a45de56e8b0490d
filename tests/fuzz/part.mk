# tests/fuzz/: libFuzzer targets (clang-14, -fsanitize=fuzzer,address,undefined)
# for every parser of untrusted input. `make fuzz` fuzzes each target in turn
# for FUZZ_SECONDS (or FUZZ_RUNS executions); `make test` replays the committed
# seed corpora and crash inputs once each (test-fuzz). See tests/fuzz/README.md.
FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_NICE ?= 10
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# FUZZ_DEFS: -D switches of the targets.
FUZZ_DEFS ?=
FUZZ_CHECK_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -MMD -MP -I. \
	-g -O1 $(FUZZ_SAN) $(FUZZ_DEFS)
FUZZ_CFLAGS := $(FUZZ_CHECK_CFLAGS) -fsanitize=fuzzer-no-link
FUZZ_LDFLAGS := $(FUZZ_SAN) -fsanitize=fuzzer

# Each target: its source, the objects it links, and its libraries.
FUZZ_TARGETS := engine position notation message
FUZZ_TARGETS += rules ogn
FUZZ_TARGETS += togyz togyz_position
FUZZ_TARGETS += trf
FUZZ_TARGETS += webpush
FUZZ_ENGINE := $(ENGINE_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_PROTO := $(PROTO_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_DEPS_engine := $(FUZZ_ENGINE)
FUZZ_DEPS_togyz := $(FUZZ_ENGINE)
FUZZ_DEPS_togyz_position := $(FUZZ_PROTO) $(FUZZ_ENGINE)
FUZZ_DEPS_position := $(FUZZ_PROTO) $(FUZZ_ENGINE)
FUZZ_DEPS_notation := $(CLI_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_PROTO) $(FUZZ_ENGINE)
FUZZ_DEPS_message := $(FUZZ_PROTO) $(FUZZ_ENGINE) $(FUZZ_BUILD)/server/base/reasm.o
FUZZ_DEPS_ogn := $(FUZZ_ENGINE)
FUZZ_DEPS_trf := $(FUZZ_BUILD)/server/rules/trf.o $(FUZZ_BUILD)/server/rules/pairing.o \
	$(FUZZ_BUILD)/server/rules/pair_dutch.o $(FUZZ_BUILD)/server/rules/pair_match.o
FUZZ_DEPS_rules := $(FUZZ_BUILD)/server/rules/rules.o $(FUZZ_BUILD)/server/base/sha256.o $(FUZZ_PROTO) $(FUZZ_ENGINE)
FUZZ_DEPS_webpush := $(FUZZ_BUILD)/server/base/webpush.o
FUZZ_LIBS_engine :=
FUZZ_LIBS_togyz :=
FUZZ_LIBS_togyz_position := $(JANSSON_LIBS) $(ICU_LIBS)
FUZZ_LIBS_position := $(JANSSON_LIBS) $(ICU_LIBS)
FUZZ_LIBS_notation := $(JANSSON_LIBS) $(ICU_LIBS)
FUZZ_LIBS_message := $(JANSSON_LIBS) $(ICU_LIBS)
FUZZ_LIBS_rules := $(JANSSON_LIBS) $(ICU_LIBS) $(CRYPTO_LIBS)
FUZZ_LIBS_ogn :=
FUZZ_LIBS_trf :=
FUZZ_LIBS_webpush := $(CRYPTO_LIBS)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
# libFuzzer options per target: fuzz_engine reads 15 + 1024 bytes at most,
# fuzz_togyz 23 + 1024; fuzz_rules plays one event per 1 to 3 bytes.
FUZZ_OPTS_engine := -max_len=1039
FUZZ_OPTS_togyz := -max_len=1047
FUZZ_OPTS_rules := -max_len=2048
FUZZ_OPTS_trf := -max_len=8192
FUZZ_OPTS_webpush := -max_len=4200
FUZZ_OPTS_position := -dict=tests/fuzz/json.dict
FUZZ_OPTS_message := -dict=tests/fuzz/json.dict
FUZZ_OPTS_togyz_position := -dict=tests/fuzz/json.dict

# The project's sources again, instrumented (shorter stem than the generic
# $(BUILD)/%.o rule, so make picks this one for $(BUILD)/fuzz/...).
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(JANSSON_CFLAGS) $(ICU_CFLAGS) -c -o $@ $<

# The targets themselves are sanitized but not coverage-instrumented: their
# reference models and checks would only slow the search and add noise.
$(FUZZ_BUILD)/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CHECK_CFLAGS) $(JANSSON_CFLAGS) -c -o $@ $<

# The CLI's main() under another name, so fuzz_notation can call it.
$(FUZZ_BUILD)/cli/oware.o: cli/oware.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Wno-missing-prototypes $(JANSSON_CFLAGS) -Dmain=ow_cli_main -c -o $@ $<

define FUZZ_LINK
$(FUZZ_BUILD)/fuzz_$(1): $(FUZZ_BUILD)/tests/fuzz/fuzz_$(1).o $(FUZZ_DEPS_$(1))
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $$@ $$^ $(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_LINK,$(t))))

.PHONY: fuzz-build test-fuzz
fuzz-build: $(FUZZ_BINS)

# Replay: given files (not directories), libFuzzer runs each input once.
test-fuzz: $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
		files=$$(ls -d tests/fuzz/corpus/$$t/* tests/fuzz/crashes/$$t/* 2>/dev/null || true); \
		[ -n "$$files" ] || { echo "test-fuzz: no inputs for $$t"; exit 1; }; \
		n=$$(echo "$$files" | wc -l); \
		$(FUZZ_BUILD)/fuzz_$$t $$files >$(FUZZ_BUILD)/replay-$$t.log 2>&1 \
			|| { tail -n 40 $(FUZZ_BUILD)/replay-$$t.log; echo "test-fuzz: $$t FAILED"; exit 1; }; \
		echo "test-fuzz: $$t: $$n inputs replayed, no failure"; \
	done
TESTS += test-fuzz

# Fuzzing: one target at a time (the machine is shared), niced. New inputs
# go to $(FUZZ_BUILD)/corpus/<target>, crashes to $(FUZZ_BUILD)/artifacts/.
fuzz: $(FUZZ_BINS)
	@failed=; $(foreach t,$(FUZZ_TARGETS),opts_$(t)='$(FUZZ_OPTS_$(t))';) \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts/$$t; \
		eval "opts=\$$opts_$$t"; \
		echo "fuzz: $$t for $(if $(FUZZ_RUNS),$(FUZZ_RUNS) runs,$(FUZZ_SECONDS) s)"; \
		nice -n $(FUZZ_NICE) $(FUZZ_BUILD)/fuzz_$$t $$opts \
			$(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) \
			-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t/ \
			$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t || failed="$$failed $$t"; \
	done; \
	[ -z "$$failed" ] || { echo "fuzz: failures in:$$failed (inputs in $(FUZZ_BUILD)/artifacts/)"; exit 1; }

# Source coverage of the corpora (committed seeds plus what `make fuzz` found
# in $(FUZZ_BUILD)/corpus): profile-instrumented builds run each input once,
# then llvm-cov reports lines and branches of the parsers and the engine.
FUZZ_COV := $(BUILD)/fuzz-cov
FUZZ_COV_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. -g -O0 \
	-fprofile-instr-generate -fcoverage-mapping
FUZZ_COV_SRC_engine := engine/oware.c
FUZZ_COV_SRC_togyz := engine/togyz.c
FUZZ_COV_SRC_togyz_position := protocol/togyz.c engine/togyz.c
FUZZ_COV_SRC_position := protocol/game.c engine/oware.c
FUZZ_COV_SRC_notation := cli/oware.c cli/game.c cli/kind.c protocol/game.c engine/oware.c
FUZZ_COV_SRC_message := protocol/message.c protocol/errors.c protocol/game.c server/base/reasm.c
FUZZ_COV_SRC_rules := server/rules/rules.c
FUZZ_COV_SRC_ogn := engine/ogn.c
FUZZ_COV_SRC_webpush := server/base/webpush.c

$(FUZZ_COV)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_COV_CFLAGS) $(JANSSON_CFLAGS) -c -o $@ $<
$(FUZZ_COV)/cli/oware.o: cli/oware.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_COV_CFLAGS) $(JANSSON_CFLAGS) -Dmain=ow_cli_main -c -o $@ $<

define FUZZ_COV_LINK
$(FUZZ_COV)/fuzz_$(1): $(FUZZ_COV)/tests/fuzz/fuzz_$(1).o $(subst $(FUZZ_BUILD)/,$(FUZZ_COV)/,$(FUZZ_DEPS_$(1)))
	$(FUZZ_CC) -fprofile-instr-generate -fsanitize=fuzzer -o $$@ $$^ $(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_COV_LINK,$(t))))

.PHONY: fuzz-coverage
fuzz-coverage: $(FUZZ_TARGETS:%=$(FUZZ_COV)/fuzz_%)
	@set -e; rm -f $(FUZZ_COV)/*.profraw; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
		LLVM_PROFILE_FILE=$(FUZZ_COV)/$$t.profraw $(FUZZ_COV)/fuzz_$$t -runs=0 \
			$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t >$(FUZZ_COV)/$$t.log 2>&1; \
		llvm-profdata-14 merge -o $(FUZZ_COV)/$$t.profdata $(FUZZ_COV)/$$t.profraw; \
		echo "== fuzz_$$t"; \
		llvm-cov-14 report $(FUZZ_COV)/fuzz_$$t -instr-profile=$(FUZZ_COV)/$$t.profdata \
			$$(case $$t in engine) echo $(FUZZ_COV_SRC_engine);; position) echo $(FUZZ_COV_SRC_position);; \
			notation) echo $(FUZZ_COV_SRC_notation);; message) echo $(FUZZ_COV_SRC_message);; \
			rules) echo $(FUZZ_COV_SRC_rules);; ogn) echo $(FUZZ_COV_SRC_ogn);; togyz) echo $(FUZZ_COV_SRC_togyz);; togyz_position) echo $(FUZZ_COV_SRC_togyz_position);; \
			webpush) echo $(FUZZ_COV_SRC_webpush);; esac) \
			| sed -n '1p;/\.c  /p'; \
	done
