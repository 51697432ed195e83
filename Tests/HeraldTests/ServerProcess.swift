import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The `herald` binary running as its own process on a given data directory, so tests can
/// kill it (even with SIGKILL) and start it again on the same data.
final class ServerProcess {
    let process = Process()
    let port: Int

    /// `standardError` receives the server's log (by default nothing does).
    init(data: String, environment extra: [String: String] = [:], standardError: FileHandle = .nullDevice) throws {
        process.executableURL = URL(fileURLWithPath: ExecutableTests.binary)
        process.arguments = ["serve", "--port", "0", "--data", data, "--root", TestApp.repositoryRoot]
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_ACCESS_LOG"] = "off"
        environment["HERALD_PASSWORD_COST"] = "minimum"
        environment["HERALD_SECRET"] = "crash-test-secret-0123456789"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardError
        try process.run()
        var line: [UInt8] = []
        while line.count < 200 {
            guard let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") else {
                break
            }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = Int(text.split(separator: ":").last ?? "") else {
            process.terminate()
            throw TestClientError("herald did not start: \(text)")
        }
        self.port = port
    }

    func kill(_ signal: Int32) {
        Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(SIGKILL) }
    }
}
