# transit: build, install and package (README, "Install").
#
#   make                      release build
#   make install              PREFIX=/usr/local DESTDIR= (staged installs: DESTDIR=/tmp/stage)
#   make uninstall            removes exactly what `make install` installed (its manifest)
#   make deb                  build/transit_VERSION-REVISION_ARCH.deb with dpkg-deb (PREFIX /usr;
#                             DEBFULLNAME, DEBEMAIL, SOURCE_DATE_EPOCH, DEB_REVISION)
#
# install-files and deb-files do the same without building (the test suite uses them, as it
# cannot start a build of the package it runs inside).

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
OUT     ?= build
# The release build folder (SwiftPM links .build/release to it).
BIN     ?= $(CURDIR)/.build/release
# The reproducible-build flags (no build folder in what ships), passed here rather than in
# Package.swift, where SwiftPM would refuse them to a package depending on PluginKit by version.
REPRODUCIBLE := $(shell scripts/reproducible-flags.sh)

.PHONY: all build install install-files release-built uninstall deb deb-files
all: build

build:
	$(SWIFT) build -c release $(REPRODUCIBLE)
	scripts/build-locales.sh

# `make install` never builds: run as root it would leave root-owned files in the checkout.
install: release-built
	$(MAKE) install-files

release-built:
	@test -x .build/release/transit || { echo "make install: no release build here; run make first (as yourself, not root)" >&2; exit 2; }

install-files:
	BIN="$(BIN)" PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/install.sh

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/uninstall.sh

deb: $(if $(wildcard .build/release/transit),,$(if $(filter 0,$(shell id -u)),release-built,build))
	$(MAKE) deb-files

deb-files:
	BIN="$(BIN)" OUT="$(OUT)" packaging/make-deb.sh
