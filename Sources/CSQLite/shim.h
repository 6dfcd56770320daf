#ifndef STATESTORE_SQLITE_SHIM_H
#define STATESTORE_SQLITE_SHIM_H

#include <sqlite3.h>

// The data-protection classes of Apple's SQLite (its sqlite3.h only; SQLite's own header reserves
// these bits): a file, and the -wal and -shm SQLite makes beside it, get the class of the flag the
// connection was opened with. Apple's values, for the builds whose header lacks them; StateStore
// passes them only on Apple platforms.
#ifndef SQLITE_OPEN_FILEPROTECTION_COMPLETE
#define SQLITE_OPEN_FILEPROTECTION_COMPLETE 0x00100000
#define SQLITE_OPEN_FILEPROTECTION_COMPLETEUNLESSOPEN 0x00200000
#define SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION 0x00300000
#define SQLITE_OPEN_FILEPROTECTION_NONE 0x00400000
#define SQLITE_OPEN_FILEPROTECTION_MASK 0x00700000
#endif

// SQLITE_TRANSIENT is a macro over a function-pointer cast, which Swift cannot import.
static inline sqlite3_destructor_type statestore_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call: a connection that refuses a file after
// SQLite opened its WAL closes without emptying that WAL into the file (or deleting it).
static inline int statestore_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#if defined(__linux__)
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// Whether the file `path` names (links followed) is the root of a mount: a file bind-mounted at
// that name. 1 or 0; -1 when the kernel does not say (statx's STATX_ATTR_MOUNT_ROOT is Linux 5.8
// and later) or statx fails. Through syscall(2): glibc declares statx only with _GNU_SOURCE.
static inline int statestore_is_mount_root(const char *path) {
#if defined(SYS_statx) && defined(STATX_ATTR_MOUNT_ROOT)
    struct statx info;
    if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_INO, &info) != 0) return -1;
    if (!(info.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) return -1;
    return (info.stx_attributes & STATX_ATTR_MOUNT_ROOT) ? 1 : 0;
#else
    (void)path;
    return -1;
#endif
}
#endif

#endif
