import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP server for tests: `Tests/mail/smtp_sink.py` (aiosmtpd) on a loopback port, in a
/// temporary directory of its own. It stops when this object goes away (its standard input
/// closes).
final class SMTPSink {
    /// One received message: the raw bytes and what Python's `email` package read in them.
    struct Message {
        let raw: [UInt8]
        let summary: [String: Any]

        var mailFrom: String { summary["mail_from"] as? String ?? "" }
        var recipients: [String] { summary["rcpt_tos"] as? [String] ?? [] }
        var from: String { summary["from"] as? String ?? "" }
        var to: String { summary["to"] as? String ?? "" }
        var subject: String { summary["subject"] as? String ?? "" }
        var messageID: String { summary["message_id"] as? String ?? "" }
        var date: String { summary["date"] as? String ?? "" }
        var contentType: String { summary["content_type"] as? String ?? "" }
        var defects: [String] { summary["defects"] as? [String] ?? [] }
        /// A header's value as Python's `email` package reads it (nil when absent).
        func header(_ name: String) -> String? {
            (summary["headers"] as? [String: String])?.first { $0.key.lowercased() == name.lowercased() }?.value
        }
        var logins: [[String: Any]] { summary["logins"] as? [[String: Any]] ?? [] }
        /// A part's decoded text with its line breaks as `\n`.
        func part(_ type: String) -> String? {
            ((summary["parts"] as? [String: String])?[type])?.replacing("\r\n", with: "\n")
        }
        var rawText: String { String(decoding: raw, as: UTF8.self) }
    }

    /// Debian's Python, which is where `python3-aiosmtpd` installs (a `python3` earlier on the
    /// PATH, from pyenv say, does not see it).
    static let python =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    static let script = TestApp.repositoryRoot + "/Tests/mail/smtp_sink.py"

    let port: Int
    let directory: String
    private let process = Process()
    private let input = Pipe()

    /// `port` nil picks a free one; `auth` as `user:password` requires AUTH with exactly those
    /// (offered without TLS unless `startTLS`); `startTLS` offers and requires STARTTLS, with a
    /// certificate for 127.0.0.1 (`certificate`) made for this sink.
    init(port requested: Int? = nil, auth: String? = nil, startTLS: Bool = false) throws {
        directory = try makeTemporaryDirectory()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = [Self.python, Self.script, directory]
        if let requested { arguments += ["--port", String(requested)] }
        if let auth { arguments += ["--auth", auth] }
        if startTLS { arguments.append("--starttls") }
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while line.count < 20, let byte = output.fileHandleForReading.readData(ofLength: 1).first,
            byte != UInt8(ascii: "\n")
        {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw TestClientError("smtp_sink.py did not start (is python3-aiosmtpd installed?)")
        }
        self.port = port
    }

    var url: String { "smtp://127.0.0.1:\(port)" }

    /// With `startTLS`: the PEM certificate a client must trust to reach this sink.
    var certificate: String { directory + "/cert.pem" }

    /// The EHLO, STARTTLS and AUTH commands received so far, in order, each with whether the
    /// connection was encrypted when it came (`"AUTH plain"`, `"AUTH tls"`).
    var commands: [String] {
        let log = (try? String(contentsOfFile: directory + "/commands.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// The first `count` messages received, waiting up to `timeout` seconds for them.
    func messages(_ count: Int, timeout: Double = 10) throws -> [Message] {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: "\(directory)/\(count).json") {
            guard Date() < deadline else {
                throw TestClientError("the SMTP sink received fewer than \(count) messages")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try (1...count).map { index in
            let raw = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(index).eml"))
            let json = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(index).json"))
            return Message(
                raw: Array(raw), summary: try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:])
        }
    }

    /// How many messages have arrived so far.
    var received: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.count
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
        }
        removeDirectory(directory)
    }
}

/// A loopback TCP socket for the failure cases, open until this object goes away: `listening`
/// false refuses every connection (bound, so no one else takes the port); `listening` true
/// completes the TCP handshake in the kernel and then never says a word (an SMTP server that
/// hangs).
final class DeadSocket {
    let port: Int
    private let descriptor: Int32
    private var closed = false

    init(listening: Bool) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard fd >= 0, bound == 0, named == 0, !listening || listen(fd, 16) == 0 else {
            if fd >= 0 { _ = Glibc.close(fd) }
            throw TestClientError("could not set up a loopback socket")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    var url: String { "smtp://127.0.0.1:\(port)" }

    /// Frees the port (for a server to take it).
    func close() {
        guard !closed, descriptor >= 0 else { return }
        closed = true
        _ = Glibc.close(descriptor)
    }

    deinit { close() }
}
