/*
 * Stand-in for Apple's <notify.h> (Darwin notifications), for Scripts/check-apple.sh only.
 *
 * glibc has no such header. What the sources may call is declared here as Apple's notify(3)
 * manual page gives it (SYNOPSIS, status codes, NOTIFY_REUSE), so that code in
 * `#if canImport(Darwin)` branches type-checks against the same Swift signatures it meets in
 * Apple's SDK: functions return uint32_t (UInt32), the codes are plain integer macros (Int32).
 * Nothing here is ever linked or run. Add a declaration only from Apple's documentation.
 */
#ifndef STATESTORE_APPLE_CHECK_NOTIFY_H
#define STATESTORE_APPLE_CHECK_NOTIFY_H

#include <stdint.h>
#include <stdbool.h>

/* Status codes (notify(3), "RETURN VALUES"). */
#define NOTIFY_STATUS_OK 0
#define NOTIFY_STATUS_INVALID_NAME 1
#define NOTIFY_STATUS_INVALID_TOKEN 2
#define NOTIFY_STATUS_INVALID_PORT 3
#define NOTIFY_STATUS_INVALID_FILE 4
#define NOTIFY_STATUS_INVALID_SIGNAL 5
#define NOTIFY_STATUS_INVALID_REQUEST 6
#define NOTIFY_STATUS_NOT_AUTHORIZED 7
#define NOTIFY_STATUS_OPT_DISABLE 8
#define NOTIFY_STATUS_SERVER_NOT_FOUND 9
#define NOTIFY_STATUS_NULL_INPUT 10
#define NOTIFY_STATUS_FAILED 1000000

/* Registration flag: reuse the descriptor (or port) passed in. */
#define NOTIFY_REUSE 0x00000001

/* A token no registration has; useful as the initial value of an in/out token. */
#define NOTIFY_TOKEN_INVALID -1

uint32_t notify_post(const char *name);
uint32_t notify_register_check(const char *name, int *out_token);
uint32_t notify_register_signal(const char *name, int sig, int *out_token);
/* Each notification writes the registration's token, a 4-byte int in network byte order. */
uint32_t notify_register_file_descriptor(const char *name, int *notify_fd, int flags, int *out_token);
uint32_t notify_check(int token, int *check);
uint32_t notify_cancel(int token);
uint32_t notify_suspend(int token);
uint32_t notify_resume(int token);
uint32_t notify_set_state(int token, uint64_t state64);
uint32_t notify_get_state(int token, uint64_t *state64);
bool notify_is_valid_token(int val);

#endif
