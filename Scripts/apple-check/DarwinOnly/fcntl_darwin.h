// Stand-in for the Apple check: what Apple's <sys/fcntl.h> declares and glibc's <fcntl.h> does
// not. Apple's open(2): O_EVTONLY, "descriptor requested for event notifications only" (a kqueue
// watch of a file that does not keep its volume from being unmounted).
#ifndef STATESTORE_STANDIN_FCNTL_DARWIN_H
#define STATESTORE_STANDIN_FCNTL_DARWIN_H

#define O_EVTONLY 0x00008000

#endif
