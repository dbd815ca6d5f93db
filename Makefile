# transit: build, install and package (README, "Install").
#
#   make                      release build
#   make install              PREFIX=/usr/local DESTDIR= (staged installs: DESTDIR=/tmp/stage)
#   make uninstall            removes exactly what `make install` installed (its manifest)
#   make deb                  build/transit_VERSION_ARCH.deb with dpkg-deb (PREFIX /usr)
#
# install-files and deb-files do the same without building (the test suite uses them, as it
# cannot start a build of the package it runs inside).

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
OUT     ?= build
# The release build folder (SwiftPM links .build/release to it).
BIN     ?= $(CURDIR)/.build/release

.PHONY: all build install install-files uninstall deb deb-files
all: build

build:
	$(SWIFT) build -c release

# `sudo make install` after `make` does not build again as root (a missing build is made).
install: $(if $(wildcard .build/release/transit),,build)
	$(MAKE) install-files

install-files:
	BIN="$(BIN)" PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/install.sh

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/uninstall.sh

deb: $(if $(wildcard .build/release/transit),,build)
	$(MAKE) deb-files

deb-files:
	BIN="$(BIN)" OUT="$(OUT)" packaging/make-deb.sh
