#ifndef TRANSIT_CLIBZIP_SHIM_H
#define TRANSIT_CLIBZIP_SHIM_H
/* Debian's libzip (libzip-dev), seen from Swift through a systemLibrary target: Metrodroid's zip exports. */
#include <zip.h>
#endif
