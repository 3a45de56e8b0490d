# tests/install/: `make install` with PREFIX and DESTDIR, then the installed server.
.PHONY: test-install
test-install: build-all
	MAKE="$(MAKE)" sh tests/install/test_install.sh
TESTS += test-install
