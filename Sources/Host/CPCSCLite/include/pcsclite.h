/* Forwards winscard.h's #include <pcsclite.h> to the header in PCSC/ (see CPCSCLite.h). */
#include <PCSC/pcsclite.h>
