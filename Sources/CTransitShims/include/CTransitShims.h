#ifndef TRANSIT_CTRANSITSHIMS_H
#define TRANSIT_CTRANSITSHIMS_H
/* What Glibc has and Swift's Glibc module does not show (pipe2 and close_range need _GNU_SOURCE),
 * wrapped for Swift, as swift-nio's CNIOLinux does. */
#include <stdint.h>

/* pipe2(2): a pipe with O_CLOEXEC and the other flags set at once. */
int transit_pipe2(int fds[2], int flags);
/* close_range(2): closes every descriptor from first to last (Linux 5.9). */
int transit_close_range(unsigned int first, unsigned int last, int flags);
#endif
