#if canImport(AppKit) && !canImport(UIKit)
    import Foundation

    extension BackgroundActivity {
        /// Sudden termination disabled while the session's writer has work (macOS): the system does
        /// not kill the app to log out or shut down while a change is queued or being written.
        /// Never refused, never taken back.
        public static let suddenTerminationDisabled = BackgroundActivity { _ in
            ProcessInfo.processInfo.disableSuddenTermination()
            return { ProcessInfo.processInfo.enableSuddenTermination() }
        }
    }
#endif
