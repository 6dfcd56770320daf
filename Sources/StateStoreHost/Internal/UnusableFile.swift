import Foundation
import StateStore

/// Moving a damaged database aside so that an app still launches (``WindowSession/Options/recoverUnusableFile``).
enum UnusableFile {
    /// Renames `path`, its `-wal` and its `-shm` to `path.unusable-TIMESTAMP…`, after removing any
    /// earlier such files (at most the last is kept); the new name, or `nil` when the rename failed
    /// (nothing is then removed).
    static func moveAside(_ path: String, now: Date = Date()) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let stamp = ISO8601DateFormatter.string(
            from: now, timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
        let target = path + ".unusable-" + stamp.replacingOccurrences(of: ":", with: "")
        guard rename(path, target) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] { _ = rename(path + suffix, target + suffix) }
        let prefix = name + ".unusable-"
        let targetName = (target as NSString).lastPathComponent
        let earlier = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        for file in earlier where file.hasPrefix(prefix) && !file.hasPrefix(targetName) {
            try? FileManager.default.removeItem(atPath: (folder.isEmpty ? "." : folder) + "/" + file)
        }
        return target
    }
}

extension StateStoreError {
    /// SQLite read the header and then found the file corrupt or not a database: what
    /// ``WindowSession/Options/recoverUnusableFile`` moves aside. A newer schema, a foreign file,
    /// I/O, permission, lock and full-disk errors are not.
    var isDamagedFile: Bool {
        guard case .damaged(let failure) = self else { return false }
        return [.corrupt, .notADatabase].contains(failure.code.primary)
    }
}
