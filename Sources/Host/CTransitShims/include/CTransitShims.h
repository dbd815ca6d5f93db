#ifndef TRANSIT_CTRANSITSHIMS_H
#define TRANSIT_CTRANSITSHIMS_H
/* What Glibc has and Swift's Glibc module does not show (pipe2 and close_range need _GNU_SOURCE;
 * libintl.h), wrapped for Swift, as swift-nio's CNIOLinux does. */
#include <stdint.h>
#include <spawn.h>
/* GNU gettext as glibc has it (setlocale, bindtextdomain, gettext, ngettext): Swift's Glibc module
 * shows locale.h but not libintl.h. TransitModel's L10n is the one caller. */
#include <locale.h>
#include <libintl.h>
#include <stdio.h>

/* stdout and stderr, which Swift sees as mutable globals and Swift 6 will not read from any
 * thread; glibc sets them once and transit never assigns them (TransitModel's StandardStream). */
FILE *transit_stdout(void);
FILE *transit_stderr(void);

/* strerror(3) in the C locale: the English an error's `message` keeps, whatever LC_MESSAGES says
 * (strerror itself speaks the user's language, L10n's `said`). */
const char *transit_strerror_english(int code);
/* strsignal(3) in English (sigdescr_np, glibc 2.32): NULL for a number that is no signal. */
const char *transit_strsignal_english(int signal);
/* pipe2(2): a pipe with O_CLOEXEC and the other flags set at once. */
int transit_pipe2(int fds[2], int flags);
/* close_range(2): closes every descriptor from first to last (Linux 5.9). */
int transit_close_range(unsigned int first, unsigned int last, int flags);
/* Starts `path` as a fresh program would: in a child of its own process group, every signal at its
 * default (glibc's internal ones too, which posix_spawn leaves ignored) and none blocked, `input`
 * as its standard input, its standard output on standard error, and no descriptor past 2. The
 * child's pid, or -1 (errno set). Only async-signal-safe calls run between fork and exec. */
int transit_spawn_clean(const char *path, char *const argv[], char *const envp[], int input);

/* The plugin worker's confinement, each step on its own so the host can say which failed:
 * every group dropped and uid and gid set (real, effective and saved); PR_SET_NO_NEW_PRIVS; a
 * seccomp filter on every thread (TSYNC) that lets the worker read and write its descriptors,
 * manage memory, read clocks, sleep and exit, and answers EPERM to every other system call. */
int transit_drop_privileges(unsigned int uid, unsigned int gid);
int transit_no_new_privs(void);
int transit_seccomp_worker(void);
#endif
