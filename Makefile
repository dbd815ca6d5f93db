# transit: build, install and package (README, "Install").
#
#   make                      release build
#   make install              PREFIX=/usr/local DESTDIR= (staged installs: DESTDIR=/tmp/stage)
#   make uninstall            removes exactly what `make install` installed (its manifest)
#   make deb                  build/transit_VERSION_ARCH.deb with dpkg-deb (PREFIX /usr)
#
# install-files and deb-files do the same without building (the test suite uses them, as it
# cannot start a build of the package it runs inside; BIN names the release build folder).

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
OUT     ?= build

.PHONY: all build install install-files uninstall deb deb-files
all: build

build:
	$(SWIFT) build -c release

install: build install-files

install-files:
	BIN="$${BIN:-$$($(SWIFT) build -c release --show-bin-path)}" PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/install.sh

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/uninstall.sh

deb: build deb-files

deb-files:
	BIN="$${BIN:-$$($(SWIFT) build -c release --show-bin-path)}" OUT="$(OUT)" packaging/make-deb.sh
