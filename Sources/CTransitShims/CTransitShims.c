#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CTransitShims.h"

int transit_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int transit_close_range(unsigned int first, unsigned int last, int flags) { return close_range(first, last, flags); }
