#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <locale.h>
#include <unistd.h>
#include "CTransitShims.h"

const char *transit_strerror_english(int code) {
    /* Made once; two threads racing here make two, one of them never freed: harmless. */
    static locale_t c;
    if (!c) c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return c ? strerror_l(code, c) : "Unknown error";
}

const char *transit_strsignal_english(int signal) { return sigdescr_np(signal); }

int transit_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int transit_close_range(unsigned int first, unsigned int last, int flags) { return close_range(first, last, flags); }

int transit_spawn_clean(const char *path, char *const argv[], char *const envp[], int input) {
    pid_t pid = fork();
    if (pid > 0) setpgid(pid, pid); /* as the child does: its group exists whichever runs first */
    if (pid != 0) return pid;
    /* The child: the kernel's sigaction, since glibc's refuses its own two signals. */
    struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } action = {SIG_DFL, 0, NULL, 0};
    for (int sig = 1; sig < 65; ++sig) {
        if (sig != SIGKILL && sig != SIGSTOP) syscall(SYS_rt_sigaction, sig, &action, NULL, sizeof action.mask);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    if (dup2(input, 0) < 0 || dup2(2, 1) < 0) _exit(127);
    close_range(3, ~0U, 0);
    execve(path, argv, envp);
    _exit(127);
}

int transit_drop_privileges(unsigned int uid, unsigned int gid) {
    if (setgroups(0, NULL) != 0) return -1;
    if (setresgid(gid, gid, gid) != 0) return -1;
    if (setresuid(uid, uid, uid) != 0) return -1;
    return 0;
}

int transit_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

#if defined(__x86_64__)
#define TRANSIT_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TRANSIT_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#define TRANSIT_ALLOW(name) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

int transit_seccomp_worker(void) {
#ifndef TRANSIT_AUDIT_ARCH
    errno = ENOSYS;
    return -1;
#else
    struct sock_filter filter[] = {
        /* Another architecture's calls (x86-64's i386 entry) are killed: their numbers differ. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TRANSIT_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        /* The x32 ABI's calls carry bit 30. */
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
        /* Its pipes and standard streams. */
        TRANSIT_ALLOW(read), TRANSIT_ALLOW(write), TRANSIT_ALLOW(readv), TRANSIT_ALLOW(writev),
        TRANSIT_ALLOW(close), TRANSIT_ALLOW(lseek), TRANSIT_ALLOW(ppoll),
#ifdef __NR_poll
        TRANSIT_ALLOW(poll),
#endif
        /* Memory. */
        TRANSIT_ALLOW(mmap), TRANSIT_ALLOW(munmap), TRANSIT_ALLOW(mprotect), TRANSIT_ALLOW(mremap),
        TRANSIT_ALLOW(madvise), TRANSIT_ALLOW(brk),
        /* Threads' waits, clocks, sleeps. */
        TRANSIT_ALLOW(futex), TRANSIT_ALLOW(sched_yield), TRANSIT_ALLOW(clock_gettime), TRANSIT_ALLOW(clock_getres),
        TRANSIT_ALLOW(clock_nanosleep), TRANSIT_ALLOW(nanosleep), TRANSIT_ALLOW(gettimeofday),
        /* Who it is (the parent it follows), signals' returns, the end. */
        TRANSIT_ALLOW(getpid), TRANSIT_ALLOW(getppid), TRANSIT_ALLOW(gettid), TRANSIT_ALLOW(rt_sigreturn),
        TRANSIT_ALLOW(rt_sigprocmask), TRANSIT_ALLOW(rt_sigaction), TRANSIT_ALLOW(sigaltstack), TRANSIT_ALLOW(getrandom),
        /* Threads (clone with CLONE_THREAD: never a new process); clone3's flags sit in memory a
           filter cannot read, so it answers ENOSYS and glibc falls back to clone. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        TRANSIT_ALLOW(set_robust_list), TRANSIT_ALLOW(rseq), TRANSIT_ALLOW(sched_getaffinity),
        /* A crash or abort signals itself (raise: tgkill; kill): to this process only, never another. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)getpid(), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        TRANSIT_ALLOW(restart_syscall), TRANSIT_ALLOW(exit), TRANSIT_ALLOW(exit_group),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog program = { .len = (unsigned short)(sizeof(filter) / sizeof(filter[0])), .filter = filter };
    return (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program);
#endif
}

FILE *transit_stdout(void) { return stdout; }
FILE *transit_stderr(void) { return stderr; }
