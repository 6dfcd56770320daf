import Foundation

// statebench: see Options.usage and README, "Performance".

/// The signal sources, kept for the life of the process.
nonisolated(unsafe) var signalSources: [any DispatchSourceSignal] = []

/// Removes `folder` and ends the process when it is asked to stop (SIGINT, SIGTERM), as the end
/// of a run does, instead of leaving the fixtures behind.
func removeOnSignal(_ folder: String) {
    for number in [SIGINT, SIGTERM] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            try? FileManager.default.removeItem(atPath: folder)
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
        source.resume()
        signalSources.append(source)
    }
}

var status: Int32 = 0
var made: String?
do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if let path = options.notifyWriter {
        try NotifyWriter.run(path: path)
        exit(0)
    }
    let folder = options.folder ?? Options.defaultFolder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    if options.removesFolder {
        made = folder
        removeOnSignal(folder)
    }
    if options.fresh {
        // Only statebench's own marks of finished fixtures: the folder may be the user's.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".done") {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
    let machine = Machine.current(quick: options.quick)
    let bench = Bench(options: options, folder: folder)
    let start = monotonicNanoseconds()
    try bench.run()
    try await bench.runHostSections()
    progress(String(format: "done in %.1f s", Double(monotonicNanoseconds() - start) / 1e9))
    let report = Report(machine: machine, figures: bench.figures, targets: bench.targets)
    print(options.json ? try report.json() : report.text())
} catch {
    progress("error: \(error)")
    status = 1
}
// What this run made in $TMPDIR goes with it (about 1.3 GB of fixtures); --keep and --dir keep them.
if let made { try? FileManager.default.removeItem(atPath: made) }
exit(status)
