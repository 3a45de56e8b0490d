# web/: the static browser client and web/engine.wasm, the engine built for
# the browser with Debian's clang-14 + lld-14 (no emscripten, no libc).
WASM_CC ?= clang-14
WASM_CFLAGS := --target=wasm32 -std=c11 -O2 -nostdlib -mbulk-memory \
	$(WARN) -I.
WASM_LDFLAGS := -fuse-ld=lld -Wl,--no-entry -Wl,--strip-all
# The engine's own sources (ENGINE_SRC, engine/part.mk) plus the export shim.
WASM_SRC := $(ENGINE_SRC) web/wasm/exports.c

web/engine.wasm: $(WASM_SRC) $(wildcard engine/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -o $@ $(WASM_SRC)

wasm: web/engine.wasm
ALL += web/engine.wasm
CLEAN += web/engine.wasm

# web/ai.wasm: the engine and its search for web/ai-worker.js (issue 5;
# added by the search helper). It imports env.now_ms: see
# web/wasm/search_exports.c.
AI_WASM_SRC := $(ENGINE_SRC) web/wasm/search_exports.c
web/ai.wasm: $(AI_WASM_SRC) $(wildcard engine/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -o $@ $(AI_WASM_SRC)
wasm: web/ai.wasm
ALL += web/ai.wasm
CLEAN += web/ai.wasm

# web/togyz.wasm: the Togyz Kumalak engine (engine/togyz.c) for the browser,
# with the same w_ exports as web/engine.wasm (web/wasm/togyz_exports.c).
TOGYZ_WASM_SRC := engine/togyz.c web/wasm/togyz_exports.c
web/togyz.wasm: $(TOGYZ_WASM_SRC) $(wildcard engine/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -o $@ $(TOGYZ_WASM_SRC)
wasm: web/togyz.wasm
ALL += web/togyz.wasm
CLEAN += web/togyz.wasm

# web/togyz-ai.wasm: the Togyz Kumalak engine and its computer player
# (engine/togyz_search.h) for web/togyz-worker.js; imports env.now_ms (see
# web/wasm/togyz_search_exports.c).
TOGYZ_AI_WASM_SRC := engine/togyz.c engine/search_common.c engine/togyz_search.c \
	web/wasm/togyz_search_exports.c
web/togyz-ai.wasm: $(TOGYZ_AI_WASM_SRC) $(wildcard engine/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -Wl,-z,stack-size=262144 -o $@ $(TOGYZ_AI_WASM_SRC)
wasm: web/togyz-ai.wasm
ALL += web/togyz-ai.wasm
CLEAN += web/togyz-ai.wasm

# The endgame database for the browser: the native build's
# ($(BUILD)/oware.egdb, cli/part.mk), copied.
web/oware.egdb: $(BUILD)/oware.egdb
	cp $< $@
egdb: web/oware.egdb
ALL += web/oware.egdb
CLEAN += web/oware.egdb

# web/sw-files.js: what the service worker (web/sw.js) keeps so that the
# page works without the network: every file of the client with the first
# 16 hex digits of its SHA-256, the endgame database apart (kept once the
# page fetches it), and a version made of them all. A changed file makes a
# new list, which the browser sees as a new version (docs/playing.md).
SW_KEEP = web/index.html web/style.css web/icon.svg web/manifest.webmanifest \
	$(filter-out web/sw.js web/sw-files.js,$(wildcard web/*.js)) \
	web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm \
	$(wildcard web/icons/*.png web/lessons/*.json web/puzzles-*.json)
SW_LATER = web/oware.egdb
web/sw-files.js: $(SW_KEEP) $(SW_LATER) web/part.mk
	@{ echo '// Made by make (web/part.mk) for sw.js: the files it keeps, by the hash of their content.'; \
	  list() { for f in $$@; do printf '  "%s": "%s",\n' "$${f#web/}" "$$(sha256sum "$$f" | cut -c1-16)"; done; }; \
	  echo 'self.OW_FILES = {'; list $(SW_KEEP); echo '};'; \
	  echo 'self.OW_LATER = {'; list $(SW_LATER); echo '};'; \
	  echo "self.OW_VERSION = '$$(cat $(SW_KEEP) $(SW_LATER) | sha256sum | cut -c1-16)';"; } >$@.tmp
	mv $@.tmp $@
ALL += web/sw-files.js
CLEAN += web/sw-files.js

# The app's icons (web/icons/, committed) drawn again from web/icon.svg.
.PHONY: icons
icons: $(NODE_DEPS)
	node tests/tools/make-icons.mjs
