#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files this process's SQLite connections hold open, by device and inode (from the descriptor
/// SQLite opened), for code that opens a file with a descriptor of its own.
///
/// POSIX advisory locks belong to the process: closing any descriptor of a file drops every lock
/// the process holds on it, a connection's included, and SQLite would go on as if it still held
/// them. So a file that may be a database this process has open is never opened and closed
/// outside SQLite: ``mayOpen(_:)`` says whether one can be.
enum OpenFiles {
    private struct File: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// How many connections hold each file open.
    private static let files = Lock<[File: Int]>([:])

    /// A connection opened the file `identity` names.
    static func opened(_ identity: StoreFile.Identity?) {
        guard case .file(let device, let inode)? = identity else { return }
        files.withLock { $0[File(device: device, inode: inode), default: 0] += 1 }
    }

    /// A connection that had the file `identity` names open closed it.
    static func closed(_ identity: StoreFile.Identity?) {
        guard case .file(let device, let inode)? = identity else { return }
        files.withLock { files in
            let file = File(device: device, inode: inode)
            guard let count = files[file] else { return }
            files[file] = count > 1 ? count - 1 : nil
        }
    }

    /// Whether the regular file `info` describes may be opened and closed with a descriptor of
    /// this process's own: it has one name (a second could be a database's or its `-shm`'s) and
    /// no connection of this process has it open. A connection's `-shm`, which SQLite locks too,
    /// is never the file itself: its name ends in `-shm`, and a second name makes two links.
    static func mayOpen(_ info: stat) -> Bool {
        guard info.st_nlink == 1 else { return false }
        let file = File(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return files.withLock { $0[file] == nil }
    }
}
