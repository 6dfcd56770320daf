/*
 * Shadows glibc's <bits/struct_stat.h> in Scripts/check-apple.sh's stand-in Darwin module with
 * Darwin's `struct stat` (<sys/stat.h>, 64-bit inodes, as every current Apple platform has it):
 * its fields in its order, with `st_mtimespec` and the others where glibc has `st_mtim`, and the
 * birth time, flags and generation glibc lacks. Types are glibc's names at Darwin's widths
 * (bits/typesizes.h here).
 */
#ifndef _BITS_STRUCT_STAT_H
#define _BITS_STRUCT_STAT_H 1

#include <bits/types/struct_timespec.h>

#define STATESTORE_APPLE_CHECK_STRUCT_STAT                                                        \
    {                                                                                             \
        __dev_t st_dev;                                                                           \
        __mode_t st_mode;                                                                         \
        __nlink_t st_nlink;                                                                       \
        __ino64_t st_ino;                                                                         \
        __uid_t st_uid;                                                                           \
        __gid_t st_gid;                                                                           \
        __dev_t st_rdev;                                                                          \
        struct timespec st_atimespec;                                                             \
        struct timespec st_mtimespec;                                                             \
        struct timespec st_ctimespec;                                                             \
        struct timespec st_birthtimespec;                                                         \
        __off_t st_size;                                                                          \
        __blkcnt_t st_blocks;                                                                     \
        __blksize_t st_blksize;                                                                   \
        __uint32_t st_flags;                                                                      \
        __uint32_t st_gen;                                                                        \
        __int32_t st_lspare;                                                                      \
        __int64_t st_qspare[2];                                                                   \
    }

struct stat STATESTORE_APPLE_CHECK_STRUCT_STAT;
#ifdef __USE_LARGEFILE64
/* Darwin's struct stat64 has the same fields; glibc declares stat64() and friends with it. */
struct stat64 STATESTORE_APPLE_CHECK_STRUCT_STAT;
#endif

/* What glibc's header says of its own struct, still true of this one. */
#define _STATBUF_ST_BLKSIZE
#define _STATBUF_ST_RDEV

#endif
