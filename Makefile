# podcast: see README.md. `make demo` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
DEB_PACKAGES := libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libtag1-dev libxml2-utils curl time pkg-config ffmpeg sqlite3 \
  php-cli php-sqlite3 python3 python3-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Swift's runtime and Foundation linked in: the binary needs only the system C libraries, and
# starts with about 6 MB less resident memory.
RELEASE := -c release --static-swift-stdlib

.PHONY: all deps wan-deps sync-phone browser build debug lint test install uninstall deb package-test bench bench-wan demo fuzz soak powercut format clean

all: build

# $(call apt-install,PACKAGES): installs those of the Debian PACKAGES that are missing, if any.
define apt-install
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "Installing:$$missing"; \
  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
fi
endef

# Installs the Debian packages the build needs, only when one is missing.
deps:
	@$(call apt-install,$(DEB_PACKAGES))

# What the WAN section of the bench needs (Scripts/bench-wan.sh: a network namespace, a packet
# delay through NFQUEUE, nginx with HTTPS). Only `make bench` and `make bench-wan` install them,
# and only as root: without root the section is skipped anyway. A package failing to install
# fails nothing: the section then says what is missing. Debian starts the nginx service it
# installs; the bench runs its own nginx, so that service is stopped and disabled again.
WAN_DEB_PACKAGES := nginx iptables libnetfilter-queue-dev openssl python3
wan-deps:
	@[ "$$(id -u)" = 0 ] || exit 0; missing=""; for p in $(WAN_DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing for the WAN bench:$$missing"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; } || echo "could not install$$missing"; \
	  if echo "$$missing" | grep -qw nginx && command -v systemctl >/dev/null && systemctl is-active -q nginx 2>/dev/null; then \
	    systemctl disable --now -q nginx && echo "stopped and disabled the nginx service the package started (the bench runs its own)"; \
	  fi; \
	fi

# The phone in the sync-server tests: gPodder's client library, mygpoclient, from PyPI in a venv
# under .build (Scripts/sync-phone.py runs in it). Made once; a failure fails nothing here: the
# tests that need the phone then say it is missing (and fail in CI, where it must be there).
SYNC_PHONE := .build/sync-phone
MYGPOCLIENT := mygpoclient==1.10
sync-phone:
	@[ -x $(SYNC_PHONE)/bin/python ] && $(SYNC_PHONE)/bin/python -c 'import mygpoclient' 2>/dev/null || { \
	  rm -rf $(SYNC_PHONE); \
	  { /usr/bin/python3 -m venv $(SYNC_PHONE) && $(SYNC_PHONE)/bin/pip install -q $(MYGPOCLIENT); } \
	    || { rm -rf $(SYNC_PHONE); echo "could not make the sync tests' phone ($(MYGPOCLIENT) in a venv)"; }; }

# The browser of the archive pages' tests (Scripts/page-browser.py): Debian's Chromium and its
# chromedriver, with Selenium and axe-selenium-python from PyPI in a venv under .build. Made
# once; a failure fails nothing here: the browser tests then say what is missing (and fail in
# CI, where it must be there). Debian 12's Python takes axe-selenium-python 2.x, whose axe-core
# is 3.x: enough for the rules the tests check.
BROWSER_DEB_PACKAGES := chromium chromium-driver
BROWSER_VENV := .build/browser
BROWSER_PYPI := selenium==4.51.0 axe-selenium-python==2.1.6
browser:
	@$(call apt-install,$(BROWSER_DEB_PACKAGES)) || echo "could not install $(BROWSER_DEB_PACKAGES)"
	@[ -x $(BROWSER_VENV)/bin/python ] && $(BROWSER_VENV)/bin/python -c 'import selenium, axe_selenium_python' 2>/dev/null || { \
	  rm -rf $(BROWSER_VENV); \
	  { /usr/bin/python3 -m venv $(BROWSER_VENV) && $(BROWSER_VENV)/bin/pip install -q $(BROWSER_PYPI); } \
	    || { rm -rf $(BROWSER_VENV); echo "could not make the browser tests' venv ($(BROWSER_PYPI))"; }; }

# The release binary, checked to start without the Swift toolchain (Scripts/check-static.sh),
# and its man page. A command plugin such as `swift package generate-manual` builds every
# product in release without --static-swift-stdlib into .build, and SwiftPM's next static build
# can reuse that build plan (.build/release.yaml) and report "complete" without linking again:
# when the check finds such a binary, the plan is dropped and the build runs again.
# The man page comes from swift-argument-parser's generate-manual tool, run on the release
# binary itself (it reads the binary's --experimental-dump-help); the tool is built once in its
# own scratch folder, so nothing but this static build ever writes to .build/release. Its
# ENVIRONMENT, FILES, CONFIGURATION and EXIT STATUS come from Packaging/podcast.1.sections.
RELEASE_BIN := .build/release/podcast
MANUAL_SCRATCH := .build-manual
MANPAGE := $(MANUAL_SCRATCH)/podcast.1
build: deps
	$(SWIFT) build $(RELEASE) --product podcast
	@bash Scripts/check-static.sh $(RELEASE_BIN) 2>/dev/null || { \
	  echo "$(RELEASE_BIN) needs the Swift runtime: SwiftPM reused a build plan made without --static-swift-stdlib; planning and building again"; \
	  rm -f .build/release.yaml && $(SWIFT) build $(RELEASE) --product podcast && bash Scripts/check-static.sh $(RELEASE_BIN); }
	$(SWIFT) build --package-path .build/checkouts/swift-argument-parser \
	  --scratch-path "$(CURDIR)/$(MANUAL_SCRATCH)" --product generate-manual
	"$(MANUAL_SCRATCH)/debug/generate-manual" $(RELEASE_BIN) --output-directory $(MANUAL_SCRATCH) \
	  --date "$$(git log -1 --format=%as 2>/dev/null || date +%F)"
	bash Scripts/manpage.sh $(MANPAGE) Packaging/podcast.1.sections

debug: deps
	$(SWIFT) build

# swift-format's lint over everything it formats, strict (a warning fails it), so the tree
# stays as `make format` leaves it; `make test` (and so CI) runs it first.
LINTED := Sources Tests Fuzz Package.swift
lint:
	$(SWIFT) format lint --strict --recursive $(LINTED)

# PODCAST_SYNC_PHONE: the phone's python for the sync-server tests (PODCAST_OPODSYNC, the
# server's folder, comes from .ci/run or the caller); PODCAST_BROWSER: the python that drives
# Chromium in the archive pages' tests.
test: deps sync-phone browser lint
	$(SWIFT) build --build-tests
	PODCAST_SYNC_PHONE=$(CURDIR)/$(SYNC_PHONE)/bin/python \
	  PODCAST_BROWSER=$(CURDIR)/$(BROWSER_VENV)/bin/python $(SWIFT) test --skip-build

# The long versions of the reliability checks: crash-resume for SOAK_ROUNDS rounds (default 100).
# Each test prints its random seed; `make soak SOAK_SEED=N` repeats a run's kill moments.
SOAK_ROUNDS ?= 100
SOAK_SEED ?=
soak: deps
	$(SWIFT) build --build-tests
	PODCAST_SOAK_ROUNDS=$(SOAK_ROUNDS) PODCAST_SOAK_SEED=$(SOAK_SEED) \
	  $(SWIFT) test --skip-build --filter CrashResumeTests

# Power cuts on LazyFS (Scripts/powercut.sh): CUTS trials of download and sync, each cut at a
# random moment or an exact system call, then a reboot and a recovery run, with a tally by kind
# of cut and by invariant; POWERCUT_SEED=N repeats a run's choices. Needs root and LazyFS,
# which is not a Debian package: LAZYFS=PATH names its binary (or a launcher for it).
CUTS ?= 20
LAZYFS ?=
POWERCUT_SEED ?=
powercut: deps
	@if [ -z "$(LAZYFS)" ]; then \
	  echo "make powercut needs LazyFS (github.com/dsrhaslab/lazyfs, MIT), a FUSE filesystem that"; \
	  echo "drops unsynced writes on command. Build it (as its README says: apt install g++ cmake"; \
	  echo "libfuse3-dev fuse3; cd libs/libpcache && ./build.sh; cd ../../lazyfs && ./build.sh), then:"; \
	  echo "  sudo make powercut LAZYFS=/path/to/lazyfs/lazyfs/build/lazyfs [CUTS=$(CUTS)]"; \
	  exit 2; \
	fi
	$(SWIFT) build --product podcast
	$(SWIFT) build --product podcast-testserver
	CUTS=$(CUTS) POWERCUT_SEED=$(POWERCUT_SEED) bash Scripts/powercut.sh "$$($(SWIFT) build --show-bin-path)" "$(LAZYFS)"

# Stripped (the symbols are a third of the file), from the release build as `make build` left
# it (a current one is not built again). With it: the man page, bash, zsh and fish completions
# and the systemd user units podcast-sync.service and .timer, where each looks under PREFIX (user
# units in ~/.local/share/systemd/user for PREFIX=~/.local, the one user folder systemd
# searches). `make deb` packages the same files. The installed binary is checked like the built one.
USER_UNIT_DIR ?= $(if $(filter $(HOME)/.local,$(PREFIX)),$(PREFIX)/share/systemd/user,$(PREFIX)/lib/systemd/user)
install: build
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d" "$(DESTDIR)$(USER_UNIT_DIR)"
	install -m 755 -s $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/podcast"
	bash Scripts/check-static.sh "$(DESTDIR)$(PREFIX)/bin/podcast"
	install -m 644 $(MANPAGE) "$(DESTDIR)$(PREFIX)/share/man/man1/podcast.1"
	$(RELEASE_BIN) --generate-completion-script bash >"$(DESTDIR)$(PREFIX)/share/bash-completion/completions/podcast"
	$(RELEASE_BIN) --generate-completion-script zsh >"$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_podcast"
	$(RELEASE_BIN) --generate-completion-script fish >"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/podcast.fish"
	sed "s|@BINDIR@|$(PREFIX)/bin|" Packaging/podcast-sync.service.in >"$(DESTDIR)$(USER_UNIT_DIR)/podcast-sync.service"
	install -m 644 Packaging/podcast-sync.timer "$(DESTDIR)$(USER_UNIT_DIR)/podcast-sync.timer"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/podcast" "$(DESTDIR)$(PREFIX)/share/man/man1/podcast.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/podcast" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_podcast" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/podcast.fish" \
	  "$(DESTDIR)$(USER_UNIT_DIR)/podcast-sync.service" "$(DESTDIR)$(USER_UNIT_DIR)/podcast-sync.timer"

# podcast_<version>_<arch>.deb here, with dpkg-deb (see Scripts/deb.sh), from the release build
# as `make build` left it: the stripped binary (checked by Scripts/check-static.sh), the man
# page, completions, the systemd user units and the copyright file; Depends from the libraries
# the binary links (dpkg-shlibdeps), plus libcurl4, opened at run time.
deb: build
	bash Scripts/deb.sh build $(RELEASE_BIN) $(MANPAGE) .

# The package as Debian tests packages (see Scripts/package-test.sh): make build and make deb
# twice in this folder, lintian, then piuparts in a Debian 12 chroot made with mmdebstrap from
# the Debian archive apt uses here, where podcast runs against the loopback test server. Needs
# root for the chroot (sudo otherwise) and that archive; installs the tools below if missing.
PACKAGE_TEST_DEB_PACKAGES := piuparts mmdebstrap lintian dpkg-dev debian-archive-keyring
package-test: deps
	@$(call apt-install,$(PACKAGE_TEST_DEB_PACKAGES))
	$(SWIFT) build --product podcast-testserver
	bash Scripts/package-test.sh "$$($(SWIFT) build --show-bin-path)/podcast-testserver"

# The debug build: shared with `make test`, and twice as quick to build from scratch.
demo: deps
	$(SWIFT) build --product podcast
	$(SWIFT) build --product podcast-testserver
	bash Scripts/demo.sh "$$($(SWIFT) build --show-bin-path)"

bench: deps wan-deps
	$(SWIFT) build $(RELEASE) --product podcast
	$(SWIFT) build $(RELEASE) --product podcast-testserver
	bash Scripts/bench.sh "$$($(SWIFT) build $(RELEASE) --show-bin-path)"

# The WAN section of the bench alone (WAN_ROUNDS, WAN_FEEDS, WAN_WARM_FEEDS: see the script).
bench-wan: deps wan-deps
	$(SWIFT) build $(RELEASE) --product podcast
	bash Scripts/bench-wan.sh "$$($(SWIFT) build $(RELEASE) --show-bin-path)"

# Fuzzes the feed parser with libFuzzer for FUZZ_SECONDS (see Fuzz/README.md). The working
# corpus grows in .build-fuzz/corpus, seeded from Fuzz/corpus; crash inputs land in Fuzz/crashes.
FUZZ_SECONDS ?= 300
FUZZ_SANITIZE ?= fuzzer,address
FUZZ_SCRATCH := .build-fuzz
fuzz: deps
	$(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --product FeedFuzzer \
	  -Xswiftc -sanitize=$(FUZZ_SANITIZE) -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
	mkdir -p $(FUZZ_SCRATCH)/corpus Fuzz/crashes
	cp Fuzz/corpus/* $(FUZZ_SCRATCH)/corpus/
	SWIFT_BACKTRACE=enable=no "$$($(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --show-bin-path)/FeedFuzzer" \
	  -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/feed.dict -rss_limit_mb=2048 -timeout=10 \
	  -artifact_prefix=Fuzz/crashes/ -print_final_stats=1 $(FUZZ_SCRATCH)/corpus

format:
	$(SWIFT) format --in-place --recursive $(LINTED)

clean:
	rm -rf .build $(MANUAL_SCRATCH) .build-package-test .demo bench-out
