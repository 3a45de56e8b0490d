# tests/container/: deploy/Containerfile built from the working tree with
# podman (a debian:12 base made with mmdebstrap when none is at hand) and
# the server run from the image; see container.test.mjs.
.PHONY: test-container
test-container: $(NODE_DEPS)
	BUILD=$(BUILD) node --test --test-concurrency=1 tests/container/
TESTS += test-container
