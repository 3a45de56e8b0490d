# tests/wasm/: web/engine.wasm, web/togyz.wasm and web/togyz-ai.wasm under
# node agree with the native engines (build/oware).
.PHONY: test-wasm
test-wasm: web/engine.wasm web/togyz.wasm web/togyz-ai.wasm $(BUILD)/oware
	OWARE=$(BUILD)/oware ENGINE_WASM=web/engine.wasm TOGYZ_WASM=web/togyz.wasm \
		TOGYZ_AI_WASM=web/togyz-ai.wasm node --test tests/wasm/
TESTS += test-wasm
