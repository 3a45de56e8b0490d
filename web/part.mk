# web/: the static browser client and web/engine.wasm, the engine built for
# the browser with Debian's clang-14 + lld-14 (no emscripten, no libc).
WASM_CC ?= clang-14
WASM_CFLAGS := --target=wasm32 -std=c11 -O2 -nostdlib -mbulk-memory \
	$(WARN) -I.
WASM_LDFLAGS := -fuse-ld=lld -Wl,--no-entry -Wl,--strip-all
# The engine's own sources (ENGINE_SRC, engine/part.mk) plus the export shim.
WASM_SRC := $(ENGINE_SRC) web/wasm/exports.c

web/engine.wasm: $(WASM_SRC) $(wildcard engine/*.h web/wasm/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -o $@ $(WASM_SRC)

wasm: web/engine.wasm
ALL += web/engine.wasm
CLEAN += web/engine.wasm

# web/ai.wasm: the engine and its search for web/ai-worker.js (issue 5;
# added by the search helper). It imports env.now_ms: see
# web/wasm/search_exports.c.
AI_WASM_SRC := $(ENGINE_SRC) web/wasm/search_exports.c
web/ai.wasm: $(AI_WASM_SRC) $(wildcard engine/*.h web/wasm/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -o $@ $(AI_WASM_SRC)
wasm: web/ai.wasm
ALL += web/ai.wasm
CLEAN += web/ai.wasm

# web/togyz.wasm: the Togyz Kumalak engine (engine/togyz.c) for the browser,
# with the same w_ exports as web/engine.wasm (web/wasm/togyz_exports.c).
TOGYZ_WASM_SRC := engine/togyz.c web/wasm/togyz_exports.c
web/togyz.wasm: $(TOGYZ_WASM_SRC) $(wildcard engine/*.h web/wasm/*.h) web/part.mk
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_LDFLAGS) -o $@ $(TOGYZ_WASM_SRC)
wasm: web/togyz.wasm
ALL += web/togyz.wasm
CLEAN += web/togyz.wasm

# web/togyz-ai.wasm: the Togyz Kumalak engine and its computer player
# (engine/togyz_search.h) for web/ai-worker.js; imports env.now_ms (see
# web/wasm/togyz_search_exports.c).
TOGYZ_AI_WASM_SRC := engine/togyz.c engine/search_common.c engine/togyz_search.c \
	web/wasm/togyz_search_exports.c
web/togyz-ai.wasm: $(TOGYZ_AI_WASM_SRC) $(wildcard engine/*.h web/wasm/*.h) web/part.mk
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

# The files the page loads through its modules (by URLs relative to them):
# the scripts, the engines, the lessons and puzzles, the strings of each
# language (web/i18n/<lang>.json: the page fetches its own), and the endgame
# database. The page asks for them under v/<hash>/, <hash> made of their
# names and content: a new build gives them a new URL, so owared lets
# browsers keep them a year ("immutable"; docs/running.md, "Static files")
# and a visitor who comes back fetches none of them again. web/v/<hash>/
# holds the scripts with each line that is only a // comment left empty
# (17 KB less to send; the lines keep their numbers; a line with a
# backtick or a "*/" is kept, and no template literal of the client has a
# line that starts with //), and so each JSDoc block of its own lines
# (from a line "/**" to a line "*/", or "/** ... */" alone on a line: the
# types tsc checks, docs/web-client.md, cost the page nothing), each with its .gz
# and .br copies, and links to the other files and their copies. The
# previous build's folder is kept (one, named by the old boot.js): a page
# opened before an upgrade, with no service worker, still finds the
# scripts it loads late (the workers, the lessons), as it did before
# there were folders.
# web/boot.js, which index.html loads, names the folder; index.html,
# boot.js, the style sheet, the icons and the manifest keep their names
# and are revalidated (ETags).
WEB_ASSETS = $(sort $(filter-out web/sw.js web/sw-files.js web/boot.js,$(wildcard web/*.js)) \
	web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm \
	$(wildcard web/lessons/*.json web/i18n/*.json web/i18n/*/*.json web/puzzles-*.json))
WEB_ASSETS_JS = $(filter %.js,$(WEB_ASSETS))
WEB_ASSETS_DIRS = $(filter web/lessons/% web/i18n/%,$(WEB_ASSETS))
WEB_ASSETS_LINKED = $(filter-out %.js $(WEB_ASSETS_DIRS),$(WEB_ASSETS)) web/oware.egdb
WEB_PLAIN = web/index.html web/boot.js web/style.css web/event.css web/ear.css web/icon.svg web/manifest.webmanifest
web/boot.js: $(WEB_ASSETS) web/oware.egdb web/part.mk \
		$(foreach f,$(WEB_ASSETS_LINKED) $(WEB_ASSETS_DIRS),$(f).gz $(f).br)
	@v=$$(sha256sum $(WEB_ASSETS) web/oware.egdb | sha256sum | cut -c1-16); d=web/v/$$v; \
	old=$$(sed -n "s|^import './v/\([0-9a-f]*\)/app.js';|\1|p" web/boot.js 2>/dev/null); \
	for x in web/v/*; do [ "$$x" = "web/v/$$old" ] || rm -rf "$$x"; done; \
	rm -rf $$d && mkdir -p $$d && \
	for f in $(WEB_ASSETS_JS); do \
	  o=$$d/$${f#web/}; sed -e '/^[ \t]*\/\*\*[ \t]*$$/,/^[ \t]*\*\/[ \t]*$$/s|.*||' \
	    -e 's|^[ \t]*/\*\*.*\*/[ \t]*$$||' -e '/\*\//!s|^[ \t]*//[^`]*$$||' $$f >$$o && \
	  gzip -9 -n -c $$o >$$o.gz && brotli -q 11 -c $$o >$$o.br || exit 1; \
	done && \
	for f in $(WEB_ASSETS_LINKED); do \
	  for e in '' .gz .br; do ln -s ../../$${f#web/}$$e $$d/$${f#web/}$$e || exit 1; done; \
	done && \
	ln -s ../../lessons $$d/lessons && ln -s ../../i18n $$d/i18n && \
	{ echo "// Made by make (web/part.mk): the app, from the folder named after its files (v/<hash>/)."; \
	  echo "import './v/$$v/app.js';"; } >$@.tmp
	mv $@.tmp $@
ALL += web/boot.js
CLEAN += web/boot.js web/v

# web/sw-files.js: what the service worker (web/sw.js) keeps so that the
# page works without the network: every file of the client but the app's
# icons (a browser keeps those when it installs the app; 48 KB that a
# first visit need not fetch), by the URL the page asks for it
# (v/<hash>/... for the files above), with the first 16 hex digits of
# its SHA-256; the endgame database apart (kept once the page
# fetches it, by its own hash, so a new version of the other files does
# not fetch it again); the folder's hash; and a version made of them all.
# A changed file makes a new list, which the browser sees as a new version
# (docs/playing.md).
SW_LATER = web/oware.egdb
web/sw-files.js: $(WEB_PLAIN) $(WEB_ASSETS) $(SW_LATER) web/part.mk
	@v=$$(sed -n "s|^import './v/\([0-9a-f]*\)/app.js';|\1|p" web/boot.js); \
	{ echo '// Made by make (web/part.mk) for sw.js: the files it keeps, by the hash of their content.'; \
	  list() { p=$$1; shift; for f in $$@; do printf '  "%s%s": "%s",\n' "$$p" "$${f#web/}" "$$(sha256sum "$$f" | cut -c1-16)"; done; }; \
	  echo 'self.OW_FILES = {'; list '' $(WEB_PLAIN); list "v/$$v/" $(WEB_ASSETS); echo '};'; \
	  echo 'self.OW_LATER = {'; list '' $(SW_LATER); echo '};'; \
	  echo "self.OW_ASSETS = '$$v';"; \
	  echo "self.OW_VERSION = '$$(cat $(WEB_PLAIN) $(WEB_ASSETS) $(SW_LATER) | sha256sum | cut -c1-16)';"; } >$@.tmp
	mv $@.tmp $@
ALL += web/sw-files.js
CLEAN += web/sw-files.js

# The app's icons (web/icons/, committed) drawn again from web/icon.svg.
.PHONY: icons
icons: $(NODE_DEPS)
	node tests/tools/make-icons.mjs

# Precompressed copies beside each file that owared sends to clients that
# accept them (docs/running.md, "Static files"): file.br (brotli -q 11,
# Debian's brotli) preferred, else file.gz (gzip -9 -n); for the page, the
# scripts, the style sheet, the engines, the endgame table, the lessons, the
# languages' strings and the puzzles, the manifest and the icon.
WEB_COMPRESS := $(sort $(wildcard web/*.js web/*.css web/*.html web/lessons/*.json web/i18n/*.json web/puzzles-*.json) \
	web/boot.js web/sw-files.js web/manifest.webmanifest web/icon.svg \
	web/engine.wasm web/ai.wasm web/togyz.wasm web/togyz-ai.wasm web/oware.egdb)
WEB_GZ := $(addsuffix .gz,$(WEB_COMPRESS))
WEB_BR := $(addsuffix .br,$(WEB_COMPRESS))
web/%.gz: web/%
	gzip -9 -n -c $< > $@.tmp && mv $@.tmp $@
web/%.br: web/%
	brotli -q 11 -c $< > $@.tmp && mv $@.tmp $@
ALL += $(WEB_GZ) $(WEB_BR)
CLEAN += $(WEB_GZ) $(WEB_BR)

# Everything the client's static files need made, for the tests that serve
# them (test-browser, test-nginx, test-web).
.PHONY: web-static
web-static: web/boot.js web/sw-files.js $(WEB_GZ) $(WEB_BR)
