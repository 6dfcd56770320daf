/*
 * Shadows glibc's <bits/pthreadtypes.h> in Scripts/check-apple.sh's stand-in Darwin module.
 *
 * On Darwin pthread_t is a pointer (`typedef struct _opaque_pthread_t *pthread_t`, in
 * <sys/_pthread/_pthread_types.h>), so Swift sees `pthread_t?` where a thread may be absent; on
 * glibc it is an `unsigned long`. glibc's own header is included under another name for
 * pthread_t, and every later declaration (pthread_self, pthread_join, ...) sees Darwin's type.
 */
#ifndef STATESTORE_APPLE_CHECK_BITS_PTHREADTYPES_H
#define STATESTORE_APPLE_CHECK_BITS_PTHREADTYPES_H

#define pthread_t __glibc_pthread_t
#include <__glibc/bits/pthreadtypes.h>
#undef pthread_t

/* Complete, as <sys/_pthread/_pthread_types.h> has it on 64-bit Darwin, so that Swift sees
   `UnsafeMutablePointer<_opaque_pthread_t>` there, not an OpaquePointer. */
struct __darwin_pthread_handler_rec {
    void (*__routine)(void *);
    void *__arg;
    struct __darwin_pthread_handler_rec *__next;
};
struct _opaque_pthread_t {
    long __sig;
    struct __darwin_pthread_handler_rec *__cleanup_stack;
    char __opaque[8176];
};
typedef struct _opaque_pthread_t *pthread_t;

#endif
