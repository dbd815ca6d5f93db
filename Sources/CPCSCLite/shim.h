#ifndef TRANSIT_CPCSCLITE_SHIM_H
#define TRANSIT_CPCSCLITE_SHIM_H
/* libpcsclite's public API, seen from Swift through a systemLibrary target. */
#include <PCSC/winscard.h>
#include <PCSC/pcsclite.h>
#include <PCSC/reader.h>
#endif
