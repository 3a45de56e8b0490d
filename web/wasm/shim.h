/* shim.h: what the wasm export shims share: the export attribute, and
 * shim_kind, the record of functions through which web/wasm/game_shim.h
 * and web/wasm/search_shim.h drive a kind of game. Each kind's record is
 * in its own header (oware_kind.h, togyz_kind.h), so that a module links
 * only its own engine; a third game, or a variant, is one more such
 * header and a module that includes it.
 *
 * Built only for wasm32 (web/part.mk), with no allocator and no libc. */
#ifndef WEB_WASM_SHIM_H
#define WEB_WASM_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* Exports a definition to JavaScript under its own name; SHIM_WXN under
 * a name built by a macro (the search shims' prefixes). */
#define WX(name) __attribute__((export_name(#name)))
#define SHIM_STR_(x) #x
#define SHIM_STR(x) SHIM_STR_(x)
#define SHIM_CAT_(a, b) a##b
#define SHIM_CAT(a, b) SHIM_CAT_(a, b)
#define SHIM_WXN(name) __attribute__((export_name(SHIM_STR(name))))

/* A kind of game as the shims see it. The game and move record are the
 * engine's structs (SHIM_GAME, SHIM_INFO of the kind's header), handed
 * over as void pointers so that one record type serves every kind. */
typedef struct shim_kind {
	/* Resets g to the standard start. */
	void (*start)(void *g);
	/* Sets g from the ints at in (the kind's SHIM_INPUT of them: pits,
	 * scores, the kind's extras, the turn): 0, or the engine's code of
	 * its pos_set with *field (if field) naming the culprit; g untouched
	 * on failure. */
	int (*from_input)(void *g, const int *in, int *field);
	/* Legal moves of g as a bit mask of pits; 0 once it is over. */
	unsigned (*legal)(const void *g);
	/* Plays pit in g, filling info (may be NULL): 0 or the engine's code. */
	int (*play)(void *g, int pit, void *info);
	uint64_t (*perft)(const void *g, int depth);
} shim_kind;

#endif
