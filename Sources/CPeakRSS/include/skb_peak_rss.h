// Running a child process to learn its own peak resident set, for `skillbook-bench cold_start`.
// wait4's ru_maxrss cannot tell it on Linux: exec keeps the largest RSS the process had before, and
// a child started with vfork or fork had its parent's pages then, so every child of a 16 MB bench
// reads at least 16 MB.
#ifndef SKB_PEAK_RSS_H
#define SKB_PEAK_RSS_H

/// Runs `path` with `argv` and `envp` (NULL-terminated), its output and errors to /dev/null, and
/// waits for it. On Linux it is traced (ptrace) only to stop it once as it exits, while its memory
/// is still there, and read its high-water mark (VmHWM of /proc/PID/status) into `*peak_kib`;
/// `*status` is its wait status. Returns 0, or an errno value: ENOSYS where there is no ptrace,
/// EPERM where this process may not trace its children.
int skb_run_measuring_peak_rss(const char *path, char *const argv[], char *const envp[], long *peak_kib, int *status);

#endif
