#ifndef TRANSIT_CSQLITE_SHIM_H
#define TRANSIT_CSQLITE_SHIM_H
/* Debian's SQLite 3 (libsqlite3-dev), seen from Swift through a systemLibrary target: the history archive. */
#include <sqlite3.h>
#endif
