// Scripts/check-apple.sh's canary: the proof that the check can fail. Part of no target.
//
// Each line marked `canary` calls an API newer than the floor (iOS 18 / macOS 15) and must be
// reported at iOS 17 / macOS 14; nothing else may be. Past the floor the whole file must
// type-check clean, so that those errors are availability's. The rest holds the stand-in SDK to
// what Apple's gives Swift: Glibc hidden, Darwin there, and the Darwin-only declarations,
// pthread_create and posix_spawn with Apple's Swift signatures.

import Darwin

#if canImport(Glibc)
    #error("Glibc is importable: the check would compile the Linux branches")
#endif
#if !(os(iOS) || os(macOS))
    #error("not an Apple target: the stand-in SDK is not in use")
#endif

// The Array form gets "conflicting arguments to generic parameter" from the compiler, the slice
// form "is only available in": both are the same unavailable initializer.
func canaryFromArray(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)  // canary
}

func canaryFromSlice(_ bytes: ArraySlice<UInt8>) -> String? {
    String(validating: bytes, as: UTF8.self)  // canary
}

// Apple's pthread_create: an optional pthread_t, and a start routine with a non-optional context.
func darwinThread(_ context: UnsafeMutableRawPointer) -> Int32 {
    var thread: UnsafeMutablePointer<_opaque_pthread_t>? = nil
    return pthread_create(
        &thread, nil,
        { context in
            Unmanaged<AnyObject>.fromOpaque(context).release()
            return nil
        }, context)
}

// <notify.h> as notify(3) gives it: UInt32 results, Int32 codes.
func darwinNotification(_ name: String) -> Bool {
    var descriptor: Int32 = -1
    var token: Int32 = NOTIFY_TOKEN_INVALID
    guard notify_register_file_descriptor(name, &descriptor, 0, &token) == UInt32(NOTIFY_STATUS_OK) else {
        return false
    }
    defer { _ = notify_cancel(token) }
    return notify_post(name) == UInt32(NOTIFY_STATUS_OK)
}

// <sys/event.h> as kqueue(2) gives it: Int32 constants, converted to kevent's field types.
func darwinWatch(_ descriptor: Int32) -> Int32 {
    let queue = kqueue()
    var change = kevent(
        ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
        fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME), data: 0, udata: nil)
    var timeout = timespec(tv_sec: 0, tv_nsec: 0)
    return kevent(queue, &change, 1, nil, 0, &timeout)
}

// Darwin's struct stat, at Darwin's widths: a UInt16 mode and link count, an Int32 device.
func darwinStatus(_ path: String) -> (mode: UInt16, links: UInt16, device: Int32, modified: Int)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return (status.st_mode & S_IFMT, status.st_nlink, status.st_dev, status.st_mtimespec.tv_sec)
}

// Apple's <spawn.h>: attributes and file actions are opaque pointers, the environment comes from
// <crt_externs.h>'s _NSGetEnviron() (Swift cannot name `environ` there).
func darwinSpawn(_ program: UnsafeMutablePointer<CChar>) -> Int32 {
    var actions: posix_spawn_file_actions_t? = nil
    var attributes: posix_spawnattr_t? = nil
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [program, nil]
    return posix_spawnp(&pid, program, &actions, &attributes, argv, _NSGetEnviron().pointee)
}
