# tests/wasm/: web/engine.wasm and web/togyz.wasm under node agree with the
# native engines (build/oware).
.PHONY: test-wasm
test-wasm: web/engine.wasm web/togyz.wasm $(BUILD)/oware
	OWARE=$(BUILD)/oware ENGINE_WASM=web/engine.wasm TOGYZ_WASM=web/togyz.wasm node --test tests/wasm/
TESTS += test-wasm
