/* Header-only target: see include/transit_reader.h. This file keeps every build system happy. */
