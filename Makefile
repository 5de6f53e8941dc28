# Conveniences over scripts/ and swift; the README's commands need no make.
.PHONY: all deps build test bench fuzz sample clean release manual-tool deb deb-arm64 check-arm64 install install-files uninstall

all:
	scripts/bootstrap

deps:
	scripts/bootstrap --deps

build:
	swift build -c release --product trackd

test:
	swift test --no-parallel

bench:
	scripts/bench

fuzz:
	scripts/fuzz

sample:
	sample-nmea/make-sample.sh

clean:
	rm -rf .build .build-* hike.gpx dist

# Install and remove (README "Running on a Raspberry Pi"). PREFIX and DESTDIR as usual;
# BINARY names an already-built trackd, so that `make install-files` needs no build.
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
SYSCONFDIR ?= /etc
UNITDIR ?= $(SYSCONFDIR)/systemd/system
UDEVRULESDIR ?= $(SYSCONFDIR)/udev/rules.d
BINARY ?= .build-release/release/trackd
UNITS = systemd/trackd@.service systemd/trackd.service systemd/trackd-live.service
RULES = udev/60-trackd.rules

# A release binary with the Swift standard library linked in: it needs only glibc,
# libsqlite3, libgps and libasound on the Pi, no Swift runtime. The flags (scripts/release-flags)
# also lay its code out for a small resident size; the man-page tool is built with the same
# ones, so that the two builds share their modules.
RELEASE_FLAGS = $(shell scripts/release-flags)

release:
	@scripts/release-flags --relink .build-release/release/trackd
	swift build -c release --product trackd --scratch-path .build-release $(RELEASE_FLAGS)

manual-tool:
	swift build -c release --product generate-manual --scratch-path .build-release $(RELEASE_FLAGS)

# The Debian package of this machine's architecture, in dist/ (scripts/package-deb).
deb: release
	scripts/package-deb --binary $(BINARY)

# The arm64 package for Raspberry Pi OS and Debian 13 trixie, cross-built on an amd64 Debian
# machine (scripts/cross-arm64: a trixie chroot and an arm64 sysroot, downloaded once into
# ~/.cache/trackd/arm64), and its run under qemu-aarch64 (scripts/check-arm64).
deb-arm64:
	scripts/package-deb --arch arm64

check-arm64:
	scripts/check-arm64

install: release install-files
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  udevadm control --reload && udevadm trigger --subsystem-match=tty --action=add; \
	  systemctl daemon-reload; \
	  echo "installed; plug a receiver in, or: systemctl start trackd@ttyACM0"; \
	fi

# The files alone: the binary, the units (ExecStart= pointed at BINDIR), the udev rules,
# and the sample configuration unless one is there (an edited one is kept).
install-files:
	test -x "$(BINARY)" || { echo "no $(BINARY): run make release, or give BINARY=path/to/trackd" >&2; exit 1; }
	install -D -m 0755 "$(BINARY)" "$(DESTDIR)$(BINDIR)/trackd"
	for unit in $(UNITS); do \
	  sed 's|/usr/local/bin/trackd|$(BINDIR)/trackd|' "$$unit" | \
	    install -D -m 0644 /dev/stdin "$(DESTDIR)$(UNITDIR)/$$(basename $$unit)" || exit 1; \
	done
	install -D -m 0644 $(RULES) "$(DESTDIR)$(UDEVRULESDIR)/60-trackd.rules"
	if [ -e "$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml" ]; then \
	  echo "keeping $(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml"; \
	else \
	  install -D -m 0644 config/trackd.toml "$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml"; \
	fi

# Removes what install put there; the tracks (/var/lib/trackd, /var/lib/private/trackd) stay,
# and so does the configuration if it was edited.
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemctl stop 'trackd@*.service' trackd.service trackd-live.service 2>/dev/null || true; \
	  systemctl disable trackd.service trackd-live.service 2>/dev/null || true; \
	fi
	rm -f "$(DESTDIR)$(BINDIR)/trackd" "$(DESTDIR)$(UDEVRULESDIR)/60-trackd.rules"
	for unit in $(UNITS); do rm -f "$(DESTDIR)$(UNITDIR)/$$(basename $$unit)"; done
	if cmp -s config/trackd.toml "$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml"; then \
	  rm -f "$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml"; \
	  rmdir "$(DESTDIR)$(SYSCONFDIR)/trackd" 2>/dev/null || true; \
	elif [ -e "$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml" ]; then \
	  echo "keeping the edited $(DESTDIR)$(SYSCONFDIR)/trackd/trackd.toml"; \
	fi
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  udevadm control --reload; systemctl daemon-reload; \
	fi
	@echo "the tracks stay in /var/lib/trackd (rm -r /var/lib/private/trackd removes them)"
