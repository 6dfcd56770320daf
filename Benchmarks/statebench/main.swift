import Foundation

// statebench: see Options.usage and README, "Performance".
do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if let path = options.notifyWriter {
        try NotifyWriter.run(path: path)
        exit(0)
    }
    let folder = options.folder ?? Options.defaultFolder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
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
    exit(1)
}
