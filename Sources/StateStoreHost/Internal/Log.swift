#if canImport(os)
    import os
#endif

/// What the session tells the system's log: on Apple platforms, the unified log (subsystem
/// `StateStoreHost`), where Console and `log stream` show it; nowhere elsewhere. The library never
/// writes to the terminal: an app hears of errors through its models' `lastError`, the session's
/// `storageIssue` and `Options.errorHandler`.
enum Log {
    #if canImport(os)
        private static let windows = Logger(subsystem: "StateStoreHost", category: "windows")
    #endif

    /// An error window `id` met: storage trouble as an error, anything else as information.
    static func window(_ id: String, _ problem: WindowError) {
        #if canImport(os)
            let level: OSLogType = problem.isStorageTrouble ? .error : .info
            windows.log(level: level, "window \(id, privacy: .public): \(problem.description)")
        #endif
    }
}
