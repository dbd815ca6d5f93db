/* libpcsclite is linked, not compiled: its headers are the target (include/CPCSCLite.h). */
