# tests/web/: node tests of the web client's shape: its module graph has no
# import cycle, and its state object takes no field added on the fly.
.PHONY: test-web
test-web: web-static
	node --test tests/web/
TESTS += test-web
