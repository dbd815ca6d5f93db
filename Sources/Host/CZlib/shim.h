#ifndef TRANSIT_CZLIB_SHIM_H
#define TRANSIT_CZLIB_SHIM_H
/* Debian's zlib (zlib1g-dev), seen from Swift through a systemLibrary target: the members of zip exports. */
#include <zlib.h>
#endif
