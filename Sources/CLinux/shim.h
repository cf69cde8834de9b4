#ifndef SEALITE_CLINUX_SHIM_H
#define SEALITE_CLINUX_SHIM_H

// Linux calls Swift can not make itself: prctl and syscall are variadic (Swift
// imports no variadic C function), and glibc declares renameat2 only with
// _GNU_SOURCE, which Swift's Glibc module is not built with.

#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Makes the process non-dumpable: no core file, and no ptrace attach or
/// /proc/PID/mem read by other processes of the same user. Returns 0 or -1.
static inline int sealite_set_not_dumpable(void) {
  return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/// 1 if the process is dumpable, 0 if not, -1 on error.
static inline int sealite_is_dumpable(void) {
  return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}

/// rename(2) that fails with EEXIST instead of replacing an existing `to`
/// (renameat2 with RENAME_NOREPLACE). Fails with EINVAL or ENOSYS where the
/// kernel or the file system can not do it.
static inline int sealite_rename_noreplace(const char *from, const char *to) {
#ifdef SYS_renameat2
  return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */);
#else
  errno = ENOSYS;
  return -1;
#endif
}

#endif
