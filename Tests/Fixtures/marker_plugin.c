/*
 * A library that must never be loaded: its constructor, which runs inside dlopen before any
 * check of the plugin could, creates the file named by -DMARKER="path". The loader tests place it
 * where an attacker could swap it in; the marker's absence proves it never ran.
 */
#include <fcntl.h>
#include <unistd.h>
#include "transit_reader.h"

__attribute__((constructor)) static void mark(void) {
    int fd = open(MARKER, O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) close(fd);
}

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    (void)host_abi_version;
    return NULL;
}
