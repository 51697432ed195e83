import Foundation

/// Runs the `herald` executable to the end: its exit status, standard output and standard error.
func runHerald(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> (
    status: Int32, out: String, err: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ExecutableTests.binary)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output, errors)
}

extension TestApp {
    /// `--data` or `--database` for a command that must reach this app's database.
    var storeArguments: [String] {
        if case .postgres(let url) = app.database.backend { return ["--database", url] }
        return ["--data", dataDirectory]
    }
}
