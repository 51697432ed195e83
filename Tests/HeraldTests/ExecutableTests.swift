import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `herald` binary as a user runs it: the first stdout line, `/healthz`, and a clean exit on SIGTERM.
@Suite struct ExecutableTests {
    static var binary: String {
        // The test bundle sits next to the executable in .build/<configuration>/.
        let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("herald").path,
            bundleDirectory.appendingPathComponent("herald").path,
            TestApp.repositoryRoot + "/.build/debug/herald",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    @Test func servesOnAFreePortAndStopsCleanlyOnSIGTERM() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve", "--port", "0", "--data", data, "--root", TestApp.repositoryRoot]
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_ACCESS_LOG"] = "off"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let firstLine = try readLine(from: output.fileHandleForReading)
        let prefix = "listening on http://127.0.0.1:"
        #expect(firstLine.hasPrefix(prefix))
        let port = try #require(Int(firstLine.dropFirst(prefix.count)))
        let health = try TestClient(port: port).get("/healthz")
        #expect(health.status == 200)
        #expect(health.text == "ok")
        #expect(try TestClient(port: port).get("/").text.contains("data-like-count"))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    @Test func badArgumentsExitWithUsage() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve", "--port", "nope"]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("usage: herald serve"))
    }

    @Test func aShortPreviousSecretStopsStartUpWithAClearMessage() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let run = try runHerald(
            ["serve", "--port", "0", "--data", data, "--root", TestApp.repositoryRoot],
            environment: [
                "HERALD_SECRET": "the-current-secret-0123456789",
                "HERALD_PREVIOUS_SECRETS": "an-older-secret-0123456789, short",
            ])
        #expect(run.status != 0)
        #expect(run.err.contains("HERALD_PREVIOUS_SECRETS: entry 2 is shorter than 16 characters"))
    }

    private func readLine(from handle: FileHandle) throws -> String {
        var bytes: [UInt8] = []
        while bytes.count < 200 {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first else { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
