#include "skb_peak_rss.h"

#include <errno.h>

#ifdef __linux__
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

/// The exit status of a child that could not be traced (Yama's ptrace_scope, a seccomp profile).
enum { CANNOT_TRACE = 126 };

/// VmHWM of /proc/`pid`/status in KiB, or -1.
static long high_water_kib(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(file);
    return kib;
}

static int wait_for(pid_t pid, int *status) {
    while (waitpid(pid, status, 0) < 0) {
        if (errno != EINTR) return errno;
    }
    return 0;
}

int skb_run_measuring_peak_rss(const char *path, char *const argv[], char *const envp[], long *peak_kib, int *status) {
    *peak_kib = -1;
    pid_t pid = fork();
    if (pid < 0) return errno;
    if (pid == 0) {
        // Only async-signal-safe calls between fork and exec. The child starts with no signal
        // blocked and SIGPIPE at its default, whatever the forking thread had.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) _exit(CANNOT_TRACE);
        execve(path, argv, envp);
        _exit(127);
    }
    int state = 0;
    int failure;
    // The stop after execve (SIGTRAP); a signal that stopped it before is passed on.
    for (;;) {
        failure = wait_for(pid, &state);
        if (failure != 0) return failure;
        if (!WIFSTOPPED(state)) {
            if (WIFEXITED(state) && WEXITSTATUS(state) == CANNOT_TRACE) return EPERM;  // ptrace forbidden here
            *status = state;
            return 0;
        }
        if (WSTOPSIG(state) == SIGTRAP) break;
        ptrace(PTRACE_CONT, pid, NULL, (void *)(long)WSTOPSIG(state));
    }
    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL));
    ptrace(PTRACE_CONT, pid, NULL, NULL);
    for (;;) {
        failure = wait_for(pid, &state);
        if (failure != 0) return failure;
        if (WIFEXITED(state) || WIFSIGNALED(state)) {
            *status = state;
            return 0;
        }
        if (!WIFSTOPPED(state)) continue;
        int signal = WSTOPSIG(state);
        if (signal == SIGTRAP && (state >> 16) == PTRACE_EVENT_EXIT) {
            *peak_kib = high_water_kib(pid);
            ptrace(PTRACE_CONT, pid, NULL, NULL);
        } else {
            ptrace(PTRACE_CONT, pid, NULL, (void *)(long)signal);  // pass the signal on
        }
    }
}
#else
int skb_run_measuring_peak_rss(const char *path, char *const argv[], char *const envp[], long *peak_kib, int *status) {
    (void)path, (void)argv, (void)envp, (void)status;
    *peak_kib = -1;
    return ENOSYS;
}
#endif
