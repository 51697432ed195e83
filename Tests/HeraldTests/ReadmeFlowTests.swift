import Foundation
import TestSupport
import Testing

/// The README's curl walk-through, run exactly as written against a real server.
@Suite struct ReadmeFlowTests {
    @Test func curlFlowFromTheReadmeLikesTheArticle() throws {
        let readme = try String(contentsOfFile: TestApp.repositoryRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- curl-flow:start -->\n```sh\n"))
        let end = try #require(readme.range(of: "```\n<!-- curl-flow:end -->"))
        let script = String(readme[start.upperBound..<end.lowerBound])

        let app = try TestApp()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["BASE"] = "http://127.0.0.1:\(app.port)"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("303 -> http://127.0.0.1:\(app.port)/login"), "\(text)")
        #expect(text.contains("role=\"status\">You liked “"), "\(text)")
        #expect(text.contains("data-like-count=\"1\""), "\(text)")
    }
}
