/*
 * Stand-in for Apple's <crt_externs.h>, for Scripts/check-apple.sh only. Darwin gives a program
 * its environment through _NSGetEnviron(); Swift there cannot name `environ` (Apple's <unistd.h>
 * does not declare it, and the Darwin overlay does not define it), so code that hands the
 * environment to posix_spawn calls this. Declared as Apple's header declares it.
 * Nothing here is ever linked or run.
 */
#ifndef STATESTORE_APPLE_CHECK_CRT_EXTERNS_H
#define STATESTORE_APPLE_CHECK_CRT_EXTERNS_H

extern char *_Nullable *_Nullable *_Nonnull _NSGetEnviron(void);

#endif
