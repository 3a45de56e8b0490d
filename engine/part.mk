# engine/: the rules engine (pure C; also built for wasm by web/part.mk).
# Only its sources here: the programs that use it are built by the
# fragments of their own folders (cli/, tests/bench/, ...).
ENGINE_SRC := engine/oware.c engine/egdb.c engine/search_common.c engine/search.c \
	engine/analysis.c engine/ogn.c engine/togyz.c engine/togyz_search.c
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
