/*
 * Shadows glibc's <bits/typesizes.h> in Scripts/check-apple.sh's stand-in Darwin module: the
 * integer types whose width differs between glibc (x86_64) and Darwin take Darwin's, from
 * <sys/_types.h> and <sys/_types/_nlink_t.h>, so that Swift sees the same types as on Apple
 * platforms (`stat.st_mode` is a UInt16 there, `st_dev` an Int32, `timeval.tv_usec` an Int32).
 * The others (ino_t, off_t, blkcnt_t, uid_t, gid_t, pid_t, time_t, ...) are the same on both.
 */
#ifndef STATESTORE_APPLE_CHECK_BITS_TYPESIZES_H
#define STATESTORE_APPLE_CHECK_BITS_TYPESIZES_H

#include <__glibc/bits/typesizes.h>

#undef __DEV_T_TYPE
#define __DEV_T_TYPE __S32_TYPE /* __darwin_dev_t: __int32_t */
#undef __MODE_T_TYPE
#define __MODE_T_TYPE __U16_TYPE /* __darwin_mode_t: __uint16_t */
#undef __NLINK_T_TYPE
#define __NLINK_T_TYPE __U16_TYPE /* nlink_t: __uint16_t */
#undef __BLKSIZE_T_TYPE
#define __BLKSIZE_T_TYPE __S32_TYPE /* __darwin_blksize_t: __int32_t */
#undef __SUSECONDS_T_TYPE
#define __SUSECONDS_T_TYPE __S32_TYPE /* __darwin_suseconds_t: __int32_t */
#undef __CLOCK_T_TYPE
#define __CLOCK_T_TYPE __ULONGWORD_TYPE /* __darwin_clock_t: unsigned long */
#undef __FSBLKCNT_T_TYPE
#define __FSBLKCNT_T_TYPE __U32_TYPE /* __darwin_fsblkcnt_t: unsigned int */
#undef __FSFILCNT_T_TYPE
#define __FSFILCNT_T_TYPE __U32_TYPE /* __darwin_fsfilcnt_t: unsigned int */

#endif
