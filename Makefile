# Oware Rooms: top-level build. `make` builds, `make test` runs every test,
# `make run` starts the server on http://localhost:8080, `make bench`
# measures. Each part adds its targets in its own fragment (*/part.mk).

# Install what is missing on a fresh Debian 12 machine before anything else
# (pkg-config below needs the -dev packages). Test-like goals need more.
NO_DEPS_GOALS := clean help
ifneq ($(filter-out $(NO_DEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
ifeq ($(OW_DEPS_DONE),)
DEPS_GROUP := $(if $(filter test test-% check bench fuzz soak asan docs-picture,$(MAKECMDGOALS)),test,build)
DEPS_STATUS := $(shell sh deploy/install-deps.sh $(DEPS_GROUP) >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error deploy/install-deps.sh $(DEPS_GROUP) failed)
endif
export OW_DEPS_DONE := 1
endif
endif

BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=

CC ?= cc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wcast-qual -Wwrite-strings -Wvla -Wformat=2 -Wundef
OW_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -MMD -MP -I.
# SAN=1: AddressSanitizer + UndefinedBehaviorSanitizer build (make asan).
ifeq ($(SAN),1)
OW_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OW_LDFLAGS += -fsanitize=address,undefined
endif
# FAULTS=1: the store's test-only fault injection (server/store/fault.h), for
# build/fault/owared (make test-store-faults).
ifeq ($(FAULTS),1)
OW_CFLAGS += -DOW_FAULTS=1
endif

JANSSON_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
JANSSON_LIBS := $(shell pkg-config --libs jansson 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)
# owared and owload run libwebsockets on a libev loop of their own (ev.h);
# libev has no pkg-config file, hence -lev.
LWS_CFLAGS := $(shell pkg-config --cflags libwebsockets 2>/dev/null)
LWS_LIBS := $(shell pkg-config --libs libwebsockets 2>/dev/null) -lev
SQLITE_CFLAGS := $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null)
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null)
PQ_LIBS := $(shell pkg-config --libs libpq 2>/dev/null)
# server/base/sha256.c: SHA-256 from libcrypto (OpenSSL; libwebsockets links it too).
CRYPTO_LIBS := $(shell pkg-config --libs libcrypto 2>/dev/null)
UUID_CFLAGS := $(shell pkg-config --cflags uuid 2>/dev/null)
UUID_LIBS := $(shell pkg-config --libs uuid 2>/dev/null)
# protocol/text.c: Unicode's confusable skeletons (UTS #39) and
# normalisation from ICU, for the names that read as a side's name.
ICU_CFLAGS := $(shell pkg-config --cflags icu-uc icu-i18n 2>/dev/null)
ICU_LIBS := $(shell pkg-config --libs icu-uc icu-i18n 2>/dev/null)

# Parts append to these.
ALL :=
TESTS :=
TESTS_ALONE :=
UNIT_TESTS :=
TESTS_ALONE :=
BENCHES :=
CLEAN :=

.PHONY: all test check bench clean help asan install run wasm fuzz soak
all: build-all

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(OW_CFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_$(firstword $(subst /, ,$<))) -c -o $@ $<

# Node packages for the tests (ws, playwright-core), pinned by tests/package-lock.json.
NODE_DEPS := tests/node_modules/.package-lock.json
$(NODE_DEPS): tests/package.json tests/package-lock.json
	cd tests && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The C parts every program links: the engine, then the protocol's JSON.
# (engine/part.mk and protocol/part.mk define ENGINE_OBJ and PROTO_OBJ.)
include engine/part.mk protocol/part.mk
include $(filter-out engine/part.mk protocol/part.mk,$(sort $(wildcard */part.mk tests/*/part.mk)))

build-all: $(ALL)

# Unit tests (Check; tests/unit/part.mk registers them all): run plain by
# `make test` and again by `make asan`.
.PHONY: test-unit
test-unit: $(UNIT_TESTS)

# Every suite, side by side (tests/run-suites.sh: each runs even when
# another failed; a table at the end, the last line counts the suites), and
# the unit tests again under the sanitizers. TESTS_ALONE: suites that run
# with nothing beside them. TEST_JOBS: how many suites at a time.
TEST_JOBS ?= 4
test:
	@MAKE="$(MAKE)" BUILD_FIRST="build-all $(BUILD)/cpu-of" CPU_OF=$(BUILD)/cpu-of \
		ALONE="$(TESTS_ALONE)" LOGS=$(BUILD)/test-logs \
		bash tests/run-suites.sh -j $(TEST_JOBS) test-unit $(TESTS) asan

# The quick set for iterating (about 2 minutes): the unit tests, the command
# line, the server suite on SQLite, the web client in node, one browser
# smoke test.
CHECKS := test-unit test-cli test-cli-togyz test-server test-web test-browser-smoke
check:
	@MAKE="$(MAKE)" BUILD_FIRST="build-all $(BUILD)/cpu-of" CPU_OF=$(BUILD)/cpu-of \
		LOGS=$(BUILD)/check-logs \
		bash tests/run-suites.sh -j $(TEST_JOBS) $(CHECKS)

# The sanitizer build (unit tests, owared) in one make of its own, so that
# `asan` and test-server-asan never build it at the same time.
.PHONY: asan-build
ifeq ($(BUILD),build)
asan-build: build/oware.egdb
endif
asan-build:
	$(MAKE) --no-print-directory BUILD=build/asan SAN=1 CFLAGS="-O1 -g" \
		build/asan/owared $(UNIT_TESTS:test-%=build/asan/test_%)
asan: asan-build
	$(MAKE) --no-print-directory BUILD=build/asan SAN=1 CFLAGS="-O1 -g" test-unit

bench: $(BENCHES)

clean:
	rm -rf build $(CLEAN)

help:
	@echo "make          build everything (installs missing Debian packages)"
	@echo "make test     build and run every test"
	@echo "make check    the quick set: unit, CLI, server, web (node), a browser smoke test"
	@echo "make run      start the server on http://localhost:8080"
	@echo "make bench    benchmarks"
	@echo "make wasm     build web/engine.wasm"
	@echo "make install  install (PREFIX=$(PREFIX) DESTDIR=)"

-include $(shell find $(BUILD) -path $(BUILD)/container -prune -o -name '*.d' -type f -print 2>/dev/null)
