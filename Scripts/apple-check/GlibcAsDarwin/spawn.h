/*
 * Shadows glibc's <spawn.h> in Scripts/check-apple.sh's stand-in Darwin module, to declare
 * posix_spawn as Apple's <spawn.h> does: its attribute and file-action objects are opaque
 * pointers (`typedef void *posix_spawnattr_t;`), so Swift sees them as optional raw pointers
 * (`var actions: posix_spawn_file_actions_t?`), where glibc's are structures. The functions and
 * flags are those Apple's posix_spawn(2) and posix_spawnattr_setflags(3) manual pages give.
 * Nothing here is ever linked or run. Add a declaration only from Apple's documentation.
 */
#ifndef STATESTORE_APPLE_CHECK_SPAWN_H
#define STATESTORE_APPLE_CHECK_SPAWN_H

#include <sys/types.h>
#include <signal.h>

typedef void *posix_spawnattr_t;
typedef void *posix_spawn_file_actions_t;

#define POSIX_SPAWN_RESETIDS 0x0001
#define POSIX_SPAWN_SETPGROUP 0x0002
#define POSIX_SPAWN_SETSIGDEF 0x0004
#define POSIX_SPAWN_SETSIGMASK 0x0008
#define POSIX_SPAWN_SETEXEC 0x0040
#define POSIX_SPAWN_START_SUSPENDED 0x0080
#define POSIX_SPAWN_CLOEXEC_DEFAULT 0x4000

int posix_spawn(pid_t *_Nullable __restrict pid, const char *_Nonnull __restrict path,
    const posix_spawn_file_actions_t _Nullable *_Nullable file_actions,
    const posix_spawnattr_t _Nullable *_Nullable __restrict attrp, char *_Nullable const argv[_Nonnull __restrict],
    char *_Nullable const envp[_Nullable __restrict]);
int posix_spawnp(pid_t *_Nullable __restrict pid, const char *_Nonnull __restrict file,
    const posix_spawn_file_actions_t _Nullable *_Nullable file_actions,
    const posix_spawnattr_t _Nullable *_Nullable __restrict attrp, char *_Nullable const argv[_Nonnull __restrict],
    char *_Nullable const envp[_Nullable __restrict]);

int posix_spawn_file_actions_init(posix_spawn_file_actions_t _Nullable *_Nonnull file_actions);
int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t _Nullable *_Nonnull file_actions);
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t _Nullable *_Nonnull file_actions, int filedes);
int posix_spawn_file_actions_adddup2(
    posix_spawn_file_actions_t _Nullable *_Nonnull file_actions, int filedes, int newfiledes);
int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t _Nullable *_Nonnull __restrict file_actions,
    int filedes, const char *_Nonnull __restrict path, int oflag, mode_t mode);

int posix_spawnattr_init(posix_spawnattr_t _Nullable *_Nonnull attr);
int posix_spawnattr_destroy(posix_spawnattr_t _Nullable *_Nonnull attr);
int posix_spawnattr_setflags(posix_spawnattr_t _Nullable *_Nonnull attr, short flags);
int posix_spawnattr_setpgroup(posix_spawnattr_t _Nullable *_Nonnull attr, pid_t pgroup);
int posix_spawnattr_setsigdefault(
    posix_spawnattr_t _Nullable *_Nonnull __restrict attr, const sigset_t *_Nonnull __restrict sigdefault);
int posix_spawnattr_setsigmask(
    posix_spawnattr_t _Nullable *_Nonnull __restrict attr, const sigset_t *_Nonnull __restrict sigmask);

#endif
