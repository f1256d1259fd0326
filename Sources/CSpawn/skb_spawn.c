#define _GNU_SOURCE
#include "skb_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/// One request to the spawning thread.
struct request {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *cwd;
    int in_fd, out_fd, err_fd, die_with_parent;
    pid_t pid;
    int error;
    int done;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t answered = PTHREAD_COND_INITIALIZER;
static struct request *pending = NULL;
static pthread_once_t started = PTHREAD_ONCE_INIT;
static int start_error = 0;

/// Closes every descriptor from `low` to `high` (inclusive); async-signal-safe.
static void close_range_from(int low, int high) {
    if (low > high) return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)low, (unsigned)high, 0) == 0) return;
#endif
    int limit = high;
    if (limit > 65535) limit = 65535;
    for (int fd = low; fd <= limit; fd++) close(fd);
}

/// In the child: everything up to exec; on failure writes errno to `report` and exits 127.
static void child(struct request *r, int report, pid_t parent) {
    int error = 0;
#ifdef __linux__
    if (r->die_with_parent) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) { error = errno; goto failed; }
        // The runner may have died between fork and prctl: then no signal would ever come.
        if (getppid() != parent) _exit(127);
    }
#else
    (void)parent;
#endif
    if (setpgid(0, 0) != 0) { error = errno; goto failed; }
    sigset_t empty;
    sigemptyset(&empty);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < 32; sig++) {
        if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, NULL);
    }
    int in_fd = r->in_fd;
    if (in_fd < 0) {
        in_fd = open("/dev/null", O_RDONLY);
        if (in_fd < 0) { error = errno; goto failed; }
    }
    // dup2 clears close-on-exec on the copies.
    if (dup2(in_fd, 0) < 0 || dup2(r->out_fd, 1) < 0 || dup2(r->err_fd, 2) < 0) { error = errno; goto failed; }
    if (report > 3) close_range_from(3, report - 1);
    close_range_from(report + 1, 0x7fffffff);
    if (r->cwd && chdir(r->cwd) != 0) { error = errno; goto failed; }
    sigprocmask(SIG_SETMASK, &empty, NULL);
    execve(r->path, r->argv, r->envp);
    error = errno;
failed:
    while (write(report, &error, sizeof error) < 0 && errno == EINTR) {}
    _exit(127);
}

/// On the spawning thread: one fork, and the child's report (nothing: exec succeeded).
static void serve(struct request *r) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) { r->error = errno; return; }
    pid_t parent = getpid();
    // Signals stay blocked across the fork so no handler of the runner runs in the child.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = fork();
    if (pid == 0) child(r, report[1], parent);
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        r->error = fork_error;
        return;
    }
    int error = 0;
    ssize_t got;
    do { got = read(report[0], &error, sizeof error); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof error) {
        // The child failed before exec and has exited: reap it, say why.
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        r->error = error ? error : ECHILD;
        return;
    }
    r->pid = pid;
    r->error = 0;
}

/// The permanent spawning thread: never returns.
static void *spawner(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (pending == NULL || pending->done) pthread_cond_wait(&posted, &lock);
        struct request *r = pending;
        pthread_mutex_unlock(&lock);
        serve(r);
        pthread_mutex_lock(&lock);
        r->done = 1;
        pthread_cond_broadcast(&answered);
    }
    return NULL;
}

static void start(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    start_error = pthread_create(&thread, &attributes, spawner, NULL);
    pthread_attr_destroy(&attributes);
}

int skb_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd, int in_fd, int out_fd,
              int err_fd, int die_with_parent, pid_t *pid) {
    pthread_once(&started, start);
    if (start_error) return start_error;
    struct request r = {path, argv, envp, cwd, in_fd, out_fd, err_fd, die_with_parent, 0, 0, 0};
    pthread_mutex_lock(&lock);
    // One request at a time.
    while (pending != NULL) pthread_cond_wait(&answered, &lock);
    pending = &r;
    pthread_cond_broadcast(&posted);
    while (!r.done) pthread_cond_wait(&answered, &lock);
    pending = NULL;
    pthread_cond_broadcast(&answered);
    pthread_mutex_unlock(&lock);
    if (r.error == 0) *pid = r.pid;
    return r.error;
}
