/*
 * Shadows glibc's <pthread.h> in Scripts/check-apple.sh's stand-in Darwin module, to declare
 * pthread_create as Apple's <pthread.h> (libpthread) does for Swift: the thread is an optional
 * pthread_t written through a non-null pointer, and the start routine takes a non-null context
 * (`@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?`; glibc's gives the
 * routine an optional one). Everything else is glibc's, with bits/pthreadtypes.h's pthread_t.
 */
#ifndef STATESTORE_APPLE_CHECK_PTHREAD_H
#define STATESTORE_APPLE_CHECK_PTHREAD_H

#define pthread_create __glibc_pthread_create
#include <__glibc/pthread.h>
#undef pthread_create

int pthread_create(pthread_t _Nullable *_Nonnull thread, const pthread_attr_t *_Nullable attributes,
    void *_Nullable (*_Nonnull start)(void *_Nonnull), void *_Nullable argument);

#endif
