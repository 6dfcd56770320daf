// The floor under a verb that starts a write: what it costs one thread to wake another that
// sleeps, on the same core and on the other one. No SQLite, no Swift: futex and pthreads.

#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "RawSQLite.h"

#if defined(__linux__)

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t wake_now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

typedef struct wake_run {
    atomic_int word;  // 1: a job is waiting; 2: stop
    atomic_int done;
    int waker_core, sleeper_core, rounds, idle_us, work_us;
    double *times_us;
    atomic_int failed;  // set by either thread
} wake_run;

static int pin(int core) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/// Waits for a job, spends `work_us` on it (a commit, roughly), says it is done, and waits again.
static void *wake_sleeper(void *argument) {
    wake_run *run = argument;
    if (pin(run->sleeper_core) != 0) atomic_store(&run->failed, 1);
    for (;;) {
        int word;
        while ((word = atomic_load(&run->word)) == 0) syscall(SYS_futex, &run->word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
        if (word == 2) return NULL;
        atomic_store(&run->word, 0);
        uint64_t end = wake_now() + (uint64_t)run->work_us * 1000u;
        while (wake_now() < end) {}
        atomic_store(&run->done, 1);
    }
}

/// Idles `idle_us` (as a main thread between a user's actions), then wakes the sleeper and times
/// only the wake, then waits until the sleeper's job is done; `rounds` times.
static void *wake_waker(void *argument) {
    wake_run *run = argument;
    if (pin(run->waker_core) != 0) atomic_store(&run->failed, 1);
    pthread_t sleeper;
    if (pthread_create(&sleeper, NULL, wake_sleeper, run) != 0) {
        atomic_store(&run->failed, 1);
        return NULL;
    }
    for (int round = -1; round < run->rounds; round++) {  // round -1 is not timed: the sleeper starts
        usleep((useconds_t)run->idle_us);
        atomic_store(&run->done, 0);
        uint64_t start = wake_now();
        atomic_store(&run->word, 1);
        syscall(SYS_futex, &run->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        uint64_t woken = wake_now();
        if (round >= 0) run->times_us[round] = (double)(woken - start) / 1e3;
        while (!atomic_load(&run->done)) usleep(10);
    }
    atomic_store(&run->word, 2);
    syscall(SYS_futex, &run->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    pthread_join(sleeper, NULL);
    return NULL;
}

int raw_wake_floor(int other_core, int rounds, int idle_us, int work_us, double *times_us) {
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) return -1;
    wake_run run = {
        .waker_core = 0, .sleeper_core = other_core ? 1 : 0, .rounds = rounds, .idle_us = idle_us,
        .work_us = work_us, .times_us = times_us};
    atomic_init(&run.word, 0);
    atomic_init(&run.done, 0);
    atomic_init(&run.failed, 0);
    pthread_t waker;  // a thread of its own, so that the caller's affinity is never changed
    if (pthread_create(&waker, NULL, wake_waker, &run) != 0) return -1;
    pthread_join(waker, NULL);
    return atomic_load(&run.failed) ? -1 : 0;
}

#else

int raw_wake_floor(int other_core, int rounds, int idle_us, int work_us, double *times_us) {
    (void)other_core, (void)rounds, (void)idle_us, (void)work_us, (void)times_us;
    return -1;  // placing threads on cores is Linux's pthread_setaffinity_np
}

#endif
