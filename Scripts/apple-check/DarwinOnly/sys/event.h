/*
 * Stand-in for Apple's <sys/event.h> (kqueue), for Scripts/check-apple.sh only.
 *
 * glibc has no kqueue. What the sources may use is declared here as Apple's kqueue(2) manual
 * page and <sys/event.h> give it: the filters, EV_ flags and NOTE_ flags are plain integer
 * macros (imported as Int32, so Swift code converts them to the field types as it must on
 * Apple), and struct kevent has Apple's field types (filter Int16, flags UInt16, fflags
 * UInt32). Nothing here is ever linked or run. Add a declaration only from Apple's
 * documentation.
 */
#ifndef STATESTORE_APPLE_CHECK_SYS_EVENT_H
#define STATESTORE_APPLE_CHECK_SYS_EVENT_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Filters. */
#define EVFILT_READ (-1)
#define EVFILT_WRITE (-2)
#define EVFILT_AIO (-3)
#define EVFILT_VNODE (-4)
#define EVFILT_PROC (-5)
#define EVFILT_SIGNAL (-6)
#define EVFILT_TIMER (-7)
#define EVFILT_MACHPORT (-8)
#define EVFILT_FS (-9)
#define EVFILT_USER (-10)
#define EVFILT_VM (-12)
#define EVFILT_EXCEPT (-15)

#pragma pack(4)
struct kevent {
    uintptr_t ident; /* identifier for this event (a descriptor for EVFILT_VNODE) */
    int16_t filter;
    uint16_t flags;
    uint32_t fflags;
    intptr_t data;
    void *udata;
};
#pragma pack()

/* Actions and flags (kevent.flags). */
#define EV_ADD 0x0001
#define EV_DELETE 0x0002
#define EV_ENABLE 0x0004
#define EV_DISABLE 0x0008
#define EV_ONESHOT 0x0010
#define EV_CLEAR 0x0020
#define EV_RECEIPT 0x0040
#define EV_DISPATCH 0x0080
#define EV_UDATA_SPECIFIC 0x0100
#define EV_VANISHED 0x0200
#define EV_SYSFLAGS 0xF000
#define EV_FLAG0 0x1000
#define EV_FLAG1 0x2000
#define EV_EOF 0x8000
#define EV_ERROR 0x4000

/* EVFILT_VNODE's fflags. */
#define NOTE_DELETE 0x00000001
#define NOTE_WRITE 0x00000002
#define NOTE_EXTEND 0x00000004
#define NOTE_ATTRIB 0x00000008
#define NOTE_LINK 0x00000010
#define NOTE_RENAME 0x00000020
#define NOTE_REVOKE 0x00000040
#define NOTE_NONE 0x00000080
#define NOTE_FUNLOCK 0x00000100

/* EVFILT_READ/EVFILT_WRITE's fflags. */
#define NOTE_LOWAT 0x00000001

/* EVFILT_USER's fflags. */
#define NOTE_TRIGGER 0x01000000
#define NOTE_FFNOP 0x00000000
#define NOTE_FFAND 0x40000000
#define NOTE_FFOR 0x80000000
#define NOTE_FFCOPY 0xc0000000
#define NOTE_FFCTRLMASK 0xc0000000
#define NOTE_FFLAGSMASK 0x00ffffff

int kqueue(void);
int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist, int nevents,
    const struct timespec *timeout);

#endif
