#ifndef TRANSIT_CLIBUSB_SHIM_H
#define TRANSIT_CLIBUSB_SHIM_H
/* Debian's libusb-1.0 (libusb-1.0-0-dev), seen from Swift through a systemLibrary target: the Sony
   RC-S380 driven over USB without pcscd (TransitUSB). pkg-config's libusb-1.0.pc adds
   -I/usr/include/libusb-1.0. */
#include <libusb.h>
#endif
