# deploy/: `make install` (PREFIX, DESTDIR) of the server, the oware tool,
# the web client and the systemd unit.
WEB_INSTALL_DIR = $(PREFIX)/share/oware-rooms/web

.PHONY: install
install: build-all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(WEB_INSTALL_DIR) \
		$(DESTDIR)$(PREFIX)/lib/systemd/system $(DESTDIR)$(PREFIX)/share/oware-rooms/nginx
	install -m 755 $(BUILD)/owared $(BUILD)/oware $(DESTDIR)$(PREFIX)/bin/
	rm -rf $(DESTDIR)$(WEB_INSTALL_DIR)/v
	cd web && find . -type f ! -name '*.c' ! -name '*.h' ! -name '*.mk' ! -name '*.md' \
		! -name '.*' -exec install -D -p -m 644 {} $(DESTDIR)$(WEB_INSTALL_DIR)/{} \;
	# web/v/<hash>/: the scripts (files, above) and links to the other files.
	cd web && find v -type l -exec sh -c 'ln -sfn "$$(readlink "$$1")" "$$2/$$1"' _ {} \
		$(DESTDIR)$(WEB_INSTALL_DIR) \;
	sed 's|@PREFIX@|$(PREFIX)|g' deploy/owared@.service \
		> $(DESTDIR)$(PREFIX)/lib/systemd/system/owared@.service
	sed 's|@PREFIX@|$(PREFIX)|g' deploy/oware-rooms.service \
		> $(DESTDIR)$(PREFIX)/lib/systemd/system/oware-rooms.service
	install -m 644 deploy/nginx/*.conf $(DESTDIR)$(PREFIX)/share/oware-rooms/nginx/
