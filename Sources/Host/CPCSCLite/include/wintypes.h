/* Forwards pcsclite.h's #include <wintypes.h> to the header in PCSC/ (see CPCSCLite.h). */
#include <PCSC/wintypes.h>
