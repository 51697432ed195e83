import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

/// Log lines kept for a test to read.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])
    var logger: Logger {
        Logger(minimumLevel: .debug) { [self] level, line in lines.withLock { $0.append("\(level) \(line)") } }
    }
    var all: [String] { lines.withLock { $0 } }
    func count(containing text: String) -> Int { all.filter { $0.contains(text) }.count }
}

@Suite struct MailTests {
    static let from = try! MailAddress("news@herald.example")

    /// Retries a few milliseconds apart and short timeouts, so the failure cases take a second.
    static func fastSettings(queueLimit: Int = 100) -> Mailer.Settings {
        var settings = Mailer.Settings()
        settings.queueLimit = queueLimit
        settings.retryDelays = [.milliseconds(50), .milliseconds(50)]
        settings.connectTimeout = .milliseconds(500)
        settings.timeout = .milliseconds(500)
        return settings
    }

    static func mailer(_ url: String, settings: Mailer.Settings = fastSettings(), log: CapturedLog = CapturedLog())
        throws -> Mailer
    {
        Mailer(server: try SMTPServer(url: url), from: from, fromName: "Herald", settings: settings, log: log.logger)
    }

    static func note(to address: String = "reader@example.org", subject: String = "Your link") throws -> MailMessage {
        try MailMessage(
            from: from, fromName: "Herald", to: MailAddress(address), subject: subject, text: "Hello.\n",
            html: "<p>Hello.</p>")
    }

    /// Seconds `work` took.
    static func seconds(_ work: () -> Void) -> Double {
        let start = ContinuousClock.now
        work()
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    // MARK: - Addresses and headers

    @Test(arguments: ["reader@example.org", "a.b+tag@mail.example.co.uk", "ünïcode@exämple.de"])
    func addressesThatAreAccepted(_ text: String) throws {
        #expect(try MailAddress(text).text == text)
    }

    @Test(arguments: [
        "", "reader", "reader@", "@example.org", "a@b@example.org", "reader@localhost", "reader@.example",
        "reader@example.", "reader@example..org", "read er@example.org", "reader@exa\tmple.org",
        "reader\u{0}@example.org", "<reader@example.org>", "a,b@example.org",
        String(repeating: "a", count: 243) + "@example.org",
    ])
    func addressesThatAreRefused(_ text: String) {
        #expect(throws: MailError.self) { try MailAddress(text) }
    }

    @Test func theLongestAddressIs254Bytes() throws {
        let local = String(repeating: "a", count: 254 - "@example.org".count)
        #expect(try MailAddress(local + "@example.org").text.utf8.count == 254)
        #expect(throws: MailError.self) { try MailAddress(local + "a@example.org") }
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func headerInjectionIsRefused(_ lineBreak: String) throws {
        let to = try MailAddress("reader@example.org")
        #expect(throws: MailError.headerInjection(field: "Subject")) {
            try MailMessage(
                from: Self.from, to: to, subject: "Hi\(lineBreak)Bcc: victim@example.org", text: "", html: "")
        }
        #expect(throws: MailError.headerInjection(field: "From")) {
            try MailMessage(
                from: Self.from, fromName: "Herald\(lineBreak)Bcc: victim@example.org", to: to, subject: "Hi",
                text: "", html: "")
        }
        #expect(throws: MailError.headerInjection(field: "address")) {
            try MailAddress("reader@example.org\(lineBreak)Bcc: victim@example.org")
        }
        #expect(throws: MailError.self) { try Mailer.parseSender("Herald <news@herald.example>\(lineBreak)Bcc: x@y.z") }
    }

    // MARK: - The message

    @Test func renderedMessageIsCRLFWithShortLines() throws {
        let long =
            String(repeating: "0123456789 ", count: 200) + "https://herald.example/password/reset/"
            + String(repeating: "x", count: 300)
        let message = try MailMessage(
            from: Self.from, to: MailAddress("reader@example.org"),
            subject: "Réinitialisez votre mot de passe sur Herald, s'il vous plaît — merci",
            text: "one\ntwo\r\nthree\rfour\n" + long, html: "<p>\(long)</p>")
        let raw = message.rendered(date: 1_780_000_000, id: "abc")
        let text = String(decoding: raw, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        for line in lines {
            #expect(!line.contains("\n") && !line.contains("\r"), "a bare line break in \(line)")
            #expect(line.utf8.count <= 78, "a line of \(line.utf8.count) bytes")
        }
        #expect(lines.contains("Date: Thu, 28 May 2026 20:26:40 +0000"))
        #expect(lines.contains("Message-ID: <abc@herald.example>"))
        #expect(lines.contains("MIME-Version: 1.0"))
        #expect(lines.contains("Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXogdm90cmUgbW90IGRlIHBhc3NlIHN1?="))
        #expect(text.utf8.allSatisfy { $0 < 0x80 }, "every byte is ASCII: headers encoded, bodies quoted-printable")
    }

    @Test func quotedPrintableKeepsDotsAndMarksWhatItMust() {
        let encoded = String(decoding: MailMessage.quotedPrintable(".\n.hidden\na=b \nü"), as: UTF8.self)
        #expect(encoded == ".\r\n.hidden\r\na=3Db=20\r\n=C3=BC")
    }

    // MARK: - Through a real SMTP server

    @Test func deliversThroughARealSMTPServer() throws {
        let sink = try SMTPSink()
        let log = CapturedLog()
        let mailer = try Self.mailer(sink.url, log: log)
        defer { mailer.drain(timeout: .seconds(5)) }
        let longLine = "Start " + String(repeating: "long-line ", count: 150) + "end"
        let text = """
            Hello from Herald.
            .
            .hidden line that starts with a dot
            ..two dots
            Equals = signs and trailing space 
            \(longLine)
            Привет, 世界.
            https://herald.example/password/reset/abc
            """
        let html =
            "<p>Hello from <b>Herald</b>.</p>\n.\n<p><a href=\"https://herald.example/password/reset/abc\">Reset</a></p>"
        let subject = "Réinitialiser le mot de passe — 重置密码 · Herald"
        let message = try mailer.message(
            to: MailAddress("reader@example.org"), subject: subject, text: text, html: html)

        #expect(mailer.send(message) == .queued)
        let received = try #require(try sink.messages(1).first)
        #expect(mailer.waitUntilIdle(timeout: .seconds(5)))

        #expect(received.mailFrom == "news@herald.example")
        #expect(received.recipients == ["reader@example.org"])
        #expect(received.from == "Herald <news@herald.example>")
        #expect(received.to == "reader@example.org")
        #expect(received.subject == subject)
        #expect(received.contentType == "multipart/alternative")
        #expect(received.messageID.hasSuffix("@herald.example>"))
        #expect(!received.date.isEmpty && received.date != "None")
        #expect(received.defects.isEmpty, "Python's email package found \(received.defects)")
        #expect(received.part("text/plain") == text)
        #expect(received.part("text/html") == html)
        // The dot lines arrived as they were written: libcurl stuffed them, aiosmtpd unstuffed them.
        let rawLines = received.rawText.components(separatedBy: "\r\n")
        #expect(rawLines.contains("."))
        #expect(rawLines.contains(".hidden line that starts with a dot"))
        #expect(rawLines.contains("..two dots"))
        #expect(mailer.sent == 1 && mailer.failed == 0)
        #expect(log.count(containing: "sent via smtp://127.0.0.1:\(sink.port)") == 1)
        #expect(!log.all.joined().contains("reader@"), "the log names the recipient's domain only")
    }

    @Test func credentialsFromTheURLAreUsedOverSTARTTLSAndNeverShown() throws {
        let sink = try SMTPSink(auth: "herald:s3cret pw@x", startTLS: true)
        let url = "smtp://herald:s3cret%20pw%40x@127.0.0.1:\(sink.port)"
        let server = try SMTPServer(url: url)
        #expect(server.url == "smtp://127.0.0.1:\(sink.port)/")
        #expect(!"\(server)".contains("s3cret"))
        #expect(server.requiresSTARTTLS)

        // The sink's certificate is its own: trusted here as a real relay's is by the system.
        var settings = Self.fastSettings()
        settings.certificateAuthorities = sink.certificate
        let log = CapturedLog()
        let mailer = try Self.mailer(url, settings: settings, log: log)
        defer { mailer.drain(timeout: .seconds(5)) }
        #expect(mailer.send(try Self.note()) == .queued)
        let received = try #require(try sink.messages(1).first)
        #expect(received.logins.first?["login"] as? String == "herald")
        #expect(
            sink.commands.starts(with: ["EHLO plain", "STARTTLS plain", "EHLO tls", "AUTH tls"]), "\(sink.commands)")

        // The wrong password: refused, retried, counted — and never in a log line.
        let wrong = try Self.mailer("smtp://herald:wr0ng-pass@127.0.0.1:\(sink.port)", settings: settings, log: log)
        #expect(wrong.send(try Self.note()) == .queued)
        #expect(wrong.waitUntilIdle(timeout: .seconds(10)))
        #expect(wrong.failed == 1 && wrong.sent == 0)
        #expect(log.count(containing: "gave up after 3 attempts") == 1)
        let everything = log.all.joined(separator: "\n")
        #expect(!everything.contains("s3cret") && !everything.contains("wr0ng"))
        #expect(!sink.commands.contains("AUTH plain"))
        wrong.drain(timeout: .seconds(1))
    }

    /// Issue #29: a server offering AUTH but no STARTTLS (or a man in the middle who removed the
    /// offer) never gets the password, or the message with its reset link.
    @Test func credentialsAreNeverSentToAServerWithoutSTARTTLS() throws {
        let sink = try SMTPSink(auth: "herald:s3cret-pw")
        let log = CapturedLog()
        let mailer = try Self.mailer("smtp://herald:s3cret-pw@127.0.0.1:\(sink.port)", log: log)
        defer { mailer.drain(timeout: .seconds(5)) }
        #expect(mailer.send(try Self.note()) == .queued)
        #expect(mailer.waitUntilIdle(timeout: .seconds(10)))
        #expect(mailer.failed == 1 && mailer.sent == 0)
        // Herald did speak to the server (EHLO, three attempts) and went no further.
        #expect(sink.commands == ["EHLO plain", "EHLO plain", "EHLO plain"], "\(sink.commands)")
        #expect(sink.received == 0)
        #expect(log.count(containing: "does not offer STARTTLS") == 3)
        #expect(log.count(containing: "nothing was sent") == 3)
        #expect(!log.all.joined().contains("s3cret"))
    }

    /// The same through the real binary: a reset mail that cannot go out says why in the server's log.
    @Test func theServersLogSaysWhyAResetMailWasNotSent() throws {
        let sink = try SMTPSink(auth: "herald:s3cret-pw")
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let logPath = data + "/stderr.log"
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        let logFile = try #require(FileHandle(forWritingAtPath: logPath))
        let server = try ServerProcess(
            data: data,
            environment: [
                "HERALD_SMTP_URL": "smtp://herald:s3cret-pw@127.0.0.1:\(sink.port)",
                "HERALD_MAIL_FROM": "news@herald.test",
            ], standardError: logFile)
        let reader = TestClient(port: server.port)
        let token = try reader.formToken(on: "/register")
        let form = [("username", "mailless"), ("password", "a-long-pass-phrase"), ("email", "mailless@example.org")]
        #expect(try reader.post("/register", form: [("csrf_token", token)] + form).status == 303)
        let forgot = TestClient(port: server.port)
        let forgotToken = try forgot.formToken(on: "/password/forgot")
        let asked = try forgot.post(
            "/password/forgot", form: [("csrf_token", forgotToken), ("email", "mailless@example.org")])
        #expect(asked.status == 303)

        var log = ""
        let deadline = Date().addingTimeInterval(10)
        while !log.contains("attempt 1 of 3 failed"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        }
        server.kill(SIGTERM)
        #expect(log.contains("does not offer STARTTLS"), "\(log)")
        #expect(log.contains("nothing was sent"))
        #expect(!log.contains("s3cret"))
        #expect(!sink.commands.contains { $0.hasPrefix("AUTH") }, "\(sink.commands)")
        #expect(sink.received == 0)
    }

    @Test(arguments: [
        ("smtp://127.0.0.1:25", false), ("smtp://127.9.8.7:2525", false), ("smtp://localhost", false),
        ("smtp://LOCALHOST:25", false), ("smtp://[::1]:25", false), ("smtp://[::ffff:127.0.0.1]:25", false),
        ("smtp://user:pw@127.0.0.1:25", true), ("smtp://user@localhost", true), ("smtp://:pw@[::1]", true),
        ("smtp://mail.example:587", true), ("smtp://10.0.0.5", true), ("smtp://[2001:db8::1]", true),
        ("smtp://localhost.example.com", true), ("smtp://128.0.0.1", true),
    ])
    func startTLSIsRequiredUnlessTheRelayIsLoopbackAndWithoutCredentials(_ url: String, _ required: Bool) throws {
        let server = try SMTPServer(url: url)
        #expect(server.requiresSTARTTLS == required)
        #expect(!server.implicitTLS)
    }

    @Test func smtpsIsTLSFromTheStart() throws {
        let server = try SMTPServer(url: "smtps://user:pw@mail.example:465")
        #expect(server.implicitTLS && !server.requiresSTARTTLS)
    }

    @Test func aServerThatHangsIsRetriedThenCountedFailedWithoutBlockingTheCaller() throws {
        let silent = try DeadSocket(listening: true)
        let log = CapturedLog()
        let mailer = try Self.mailer("smtp://herald:hidden-password@127.0.0.1:\(silent.port)", log: log)
        defer { mailer.drain(timeout: .seconds(5)) }
        let message = try Self.note()

        var answer = Mailer.Submission.closed
        let elapsed = Self.seconds { answer = mailer.send(message) }
        #expect(answer == .queued)
        // Each attempt waits 0.5 s for a greeting that never comes; the caller does not.
        #expect(elapsed < 0.5, "send took \(elapsed) s")
        #expect(mailer.pending == 1)

        #expect(mailer.waitUntilIdle(timeout: .seconds(15)))
        #expect(mailer.failed == 1 && mailer.sent == 0)
        #expect(log.count(containing: "attempt 1 of 3 failed") == 1)
        #expect(log.count(containing: "attempt 2 of 3 failed") == 1)
        #expect(log.count(containing: "gave up after 3 attempts") == 1)
        #expect(!log.all.joined().contains("hidden-password"))
    }

    @Test func aRetryDeliversOnceTheServerIsBack() throws {
        let refusing = try DeadSocket(listening: false)
        let log = CapturedLog()
        var settings = Self.fastSettings()
        settings.retryDelays = [.milliseconds(500), .seconds(3)]
        let mailer = try Self.mailer(refusing.url, settings: settings, log: log)
        defer { mailer.drain(timeout: .seconds(5)) }

        #expect(mailer.send(try Self.note()) == .queued)
        let deadline = Date().addingTimeInterval(5)
        while log.count(containing: "attempt 1 of 3 failed") == 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(log.count(containing: "attempt 1 of 3 failed") == 1)
        refusing.close()
        let sink = try SMTPSink(port: refusing.port)

        #expect(mailer.waitUntilIdle(timeout: .seconds(10)))
        #expect(mailer.sent == 1 && mailer.failed == 0)
        #expect(try sink.messages(1).count == 1)
    }

    @Test func aFullQueueAnswersAtOnceAndDrainEndsIt() throws {
        let refusing = try DeadSocket(listening: false)
        var settings = Self.fastSettings(queueLimit: 3)
        // A long backoff: the failed messages keep their places in the queue.
        settings.retryDelays = [.seconds(60)]
        let mailer = try Self.mailer(refusing.url, settings: settings)
        let message = try Self.note()

        #expect((1...3).map { _ in mailer.send(message) } == [.queued, .queued, .queued])
        var answer = Mailer.Submission.queued
        let elapsed = Self.seconds { answer = mailer.send(message) }
        #expect(answer == .queueFull)
        #expect(elapsed < 0.5)
        #expect(mailer.pending == 3)

        // Shutdown: one last attempt each, no waiting out the backoff, then nothing more is taken.
        #expect(mailer.drain(timeout: .seconds(5)))
        #expect(mailer.failed == 3 && mailer.pending == 0)
        #expect(mailer.send(message) == .closed)
    }

    // MARK: - Configuration

    @Test func withoutSMTPURLThereIsNoMailer() throws {
        let (_, configuration) = try CommandLineArguments.parse(["serve"], environment: [:])
        #expect(configuration.smtpURL == nil && configuration.mailFrom == nil)
        #expect(try Mailer.configured(from: configuration, log: .silent) == nil)
    }

    @Test func theEnvironmentConfiguresTheMailer() throws {
        let (_, configuration) = try CommandLineArguments.parse(
            ["serve"],
            environment: [
                "HERALD_SMTP_URL": "smtps://u:p@mail.example:465",
                "HERALD_MAIL_FROM": "Herald News <news@herald.example>",
            ])
        #expect(configuration.smtpURL == "smtps://u:p@mail.example:465")
        let mailer = try #require(try Mailer.configured(from: configuration, log: .silent))
        defer { mailer.drain(timeout: .seconds(1)) }
        #expect(mailer.server.url == "smtps://mail.example:465/")
        #expect(mailer.server.implicitTLS)
        #expect(mailer.from.text == "news@herald.example")
        #expect(mailer.fromName == "Herald News")
    }

    @Test(arguments: [
        ["HERALD_SMTP_URL": "http://u:topsecret@mail.example", "HERALD_MAIL_FROM": "news@herald.example"],
        ["HERALD_SMTP_URL": "smtp://u:topsecret@mail.example"],
        ["HERALD_SMTP_URL": "smtp://u:topsecret@mail.example", "HERALD_MAIL_FROM": "not-an-address"],
        ["HERALD_SMTP_URL": "smtp://u:topsecret@", "HERALD_MAIL_FROM": "news@herald.example"],
    ])
    func badMailSettingsStopTheStartWithoutShowingThePassword(_ environment: [String: String]) {
        do {
            _ = try CommandLineArguments.parse(["serve"], environment: environment)
            Issue.record("accepted \(environment)")
        } catch {
            #expect(error.description.contains("HERALD_"))
            #expect(!error.description.contains("topsecret"))
        }
    }
}
