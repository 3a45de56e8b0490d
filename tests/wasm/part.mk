# tests/wasm/: web/engine.wasm under node agrees with the native engine (build/oware).
.PHONY: test-wasm
test-wasm: web/engine.wasm $(BUILD)/oware
	OWARE=$(BUILD)/oware ENGINE_WASM=web/engine.wasm node --test tests/wasm/
TESTS += test-wasm
