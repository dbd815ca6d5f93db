#ifndef TRANSIT_CPCSCLITE_H
#define TRANSIT_CPCSCLITE_H
/* libpcsclite's public API (Debian's libpcsclite-dev), seen from Swift: its functions and its
 * SCARD_* macros. A C target rather than a system library: libpcsclite.pc's Cflags carry
 * -pthread, which SwiftPM refuses with a warning; the headers' own includes of <pcsclite.h> and
 * <wintypes.h> resolve to the forwarding headers beside this one. */
#include <PCSC/winscard.h>
#include <PCSC/reader.h>

/* reader.h builds its attribute tags with a function-like macro, which Swift does not import. */
static const DWORD CPCSC_ATTR_MAXINPUT = SCARD_ATTR_MAXINPUT;
#endif
