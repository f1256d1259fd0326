// Starting a child process that dies with the runner: fork and exec from one permanent thread,
// with the parent-death signal set in the child (Linux). Foundation's Process and posix_spawn
// cannot set PR_SET_PDEATHSIG, and the kernel sends it when the *thread* that forked exits, so
// every fork happens on a thread made for it that never ends.
#ifndef SKB_SPAWN_H
#define SKB_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated): the child gets `in_fd`, `out_fd` and
/// `err_fd` as 0, 1, 2 (`in_fd` < 0: /dev/null), every other descriptor closed, `cwd` as its
/// directory (NULL: the runner's), a process group of its own, an empty signal mask and default
/// signal actions. With `die_with_parent`, on Linux, the child is sent SIGKILL when the runner
/// ends, however it ends (SIGKILL too). Returns 0 and the child's pid in `*pid`, or an errno
/// value: of the fork, or of the child's set-up or exec (reported back before this returns).
int skb_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd, int in_fd, int out_fd,
              int err_fd, int die_with_parent, pid_t *pid);

#endif
