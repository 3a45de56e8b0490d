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
TOGYZ_AI_WASM_SRC := engine/togyz.c engine/togyz_search.c web/wasm/togyz_search_exports.c
web/togyz-ai.wasm: $(TOGYZ_AI_WASM_SRC) $(wildcard engine/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -Wl,-z,stack-size=262144 -o $@ $(TOGYZ_AI_WASM_SRC)
wasm: web/togyz-ai.wasm
ALL += web/togyz-ai.wasm
CLEAN += web/togyz-ai.wasm

# Precompressed copies (file.gz beside each file) that owared sends to
# clients accepting gzip (README, "Running the server"): the engines, the
# endgame table, the scripts, the style sheet and the page.
WEB_GZ := $(addsuffix .gz,$(wildcard web/*.js web/*.css web/*.html) \
	web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm web/oware.egdb)
web/%.gz: web/%
	gzip -9 -n -c $< > $@.tmp && mv $@.tmp $@
ALL += $(WEB_GZ)
CLEAN += $(WEB_GZ)
