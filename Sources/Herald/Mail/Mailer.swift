import Dispatch
import Foundation
import HTTP
import Synchronization

/// Sends email off the request path: `send` puts a message in a bounded queue and answers at
/// once; one background thread delivers it through libcurl's SMTP, retrying a failed attempt
/// after a backoff, and logs and counts what it finally could not deliver.
///
/// A message waiting for its retry keeps its place in the queue, as does the one being sent, so
/// that a server that is down fills the queue and `send` answers `.queueFull` instead of piling
/// up memory. Retries wait without holding up other messages.
///
/// The thread lives until `drain(timeout:)`: call it at shutdown (and at the end of a test).
public final class Mailer: Sendable {
    public enum Submission: Sendable, Equatable {
        /// Accepted; it will be sent (or logged and counted as failed) in the background.
        case queued
        /// `queueLimit` messages are already waiting: nothing was queued.
        case queueFull
        /// `drain` has been called: the mailer takes no more messages.
        case closed
    }

    public struct Settings: Sendable {
        /// Messages waiting, retrying or being sent, at most.
        public var queueLimit = 100
        /// The wait before each retry; one attempt more than there are delays.
        public var retryDelays: [Duration] = [.seconds(2), .seconds(10)]
        public var connectTimeout: Duration = .seconds(10)
        /// For one whole attempt: connection, TLS, the SMTP dialogue and the upload.
        public var timeout: Duration = .seconds(30)
        /// A PEM file of the authorities the server's certificate is checked against; nil: the
        /// system's. (The tests' own SMTP server has a certificate of its own making.)
        public var certificateAuthorities: String?

        public init() {}

        public var attempts: Int { retryDelays.count + 1 }
    }

    public let server: SMTPServer
    /// `HERALD_MAIL_FROM`: the envelope sender and the `From:` header.
    public let from: MailAddress
    /// The name shown with `from` (`Herald <news@example.com>`), when `HERALD_MAIL_FROM` gives one.
    public let fromName: String?
    public let settings: Settings
    private let log: Logger
    private let state = Mutex(State())
    /// Rung when a message is queued or `drain` is called; the worker sleeps on it between jobs.
    private let bell = DispatchSemaphore(value: 0)
    private let sentCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)

    private struct Job: Sendable {
        let bytes: [UInt8]
        let from: MailAddress
        let to: MailAddress
        /// The Message-ID's local part: names the message in log lines without the recipient.
        let id: String
        var attempts = 0
        var due: DispatchTime
    }

    private struct State: Sendable {
        var waiting: [Job] = []
        var sending = 0
        var closed = false
        var held: Int { waiting.count + sending }
    }

    public init(
        server: SMTPServer, from: MailAddress, fromName: String? = nil, settings: Settings = Settings(),
        log: Logger
    ) {
        self.server = server
        self.from = from
        self.fromName = fromName
        self.settings = settings
        self.log = log
        let thread = Thread { [self] in run() }
        thread.name = "mailer"
        thread.start()
    }

    /// The mailer for `configuration`, or nil when `HERALD_SMTP_URL` is not set. Throws when the
    /// URL or `HERALD_MAIL_FROM` (`news@example.com` or `Name <news@example.com>`) is unusable.
    public static func configured(
        from configuration: Configuration, settings: Settings = Settings(), log: Logger
    ) throws(MailError) -> Mailer? {
        guard let url = configuration.smtpURL else { return nil }
        let server = try SMTPServer(url: url)
        guard let sender = configuration.mailFrom else {
            throw .invalidAddress(reason: "HERALD_MAIL_FROM is required when HERALD_SMTP_URL is set")
        }
        let (name, address) = try parseSender(sender)
        return Mailer(server: server, from: address, fromName: name, settings: settings, log: log)
    }

    /// `news@example.com` or `Display Name <news@example.com>`.
    public static func parseSender(_ text: String) throws(MailError) -> (name: String?, address: MailAddress) {
        try MailMessage.checkHeaderValue(text, field: "From")
        guard text.hasSuffix(">"), let open = text.lastIndex(of: "<") else { return (nil, try MailAddress(text)) }
        let address = try MailAddress(String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
        let name = text[..<open].trimmingCharacters(in: .whitespaces)
        return (name.isEmpty ? nil : name, address)
    }

    /// A message from this mailer's sender.
    public func message(
        to: MailAddress, subject: String, text: String, html: String, headers: [MailHeader] = []
    ) throws(MailError) -> MailMessage {
        try MailMessage(
            from: from, fromName: fromName, to: to, subject: subject, text: text, html: html, headers: headers)
    }

    /// Builds a message to `address` and queues it, logging (without the address) why it was not:
    /// an address or header that cannot be sent, or a full queue. `what` names it in the log.
    /// `headers` come after the usual ones (`List-Unsubscribe`). False when it was not queued (a
    /// caller that keeps its own record of what was mailed keeps it for a later try).
    @discardableResult
    public func queue(
        to address: String, subject: String, text: String, html: String, what: String, headers: [MailHeader] = []
    ) -> Bool {
        do {
            let message = try message(
                to: try MailAddress(address), subject: subject, text: text, html: html, headers: headers)
            switch send(message) {
            case .queued: return true
            case .queueFull: log.warning("\(what) dropped: the mail queue is full")
            case .closed: log.warning("\(what) not sent: the mailer is shutting down")
            }
        } catch {
            log.warning("\(what) not sent: \(error)")
        }
        return false
    }

    /// Queues `message`; never blocks on the network.
    @discardableResult
    public func send(_ message: MailMessage) -> Submission {
        let id = MailMessage.randomToken()
        let job = Job(
            bytes: message.rendered(id: id), from: message.from, to: message.to, id: id, due: .now())
        let answer = state.withLock { state -> Submission in
            if state.closed { return .closed }
            guard state.held < settings.queueLimit else { return .queueFull }
            state.waiting.append(job)
            return .queued
        }
        if answer == .queued { bell.signal() }
        return answer
    }

    /// Messages delivered since start.
    public var sent: Int { sentCount.load(ordering: .sequentiallyConsistent) }
    /// Messages given up on after every attempt failed.
    public var failed: Int { failedCount.load(ordering: .sequentiallyConsistent) }
    /// Messages waiting, retrying or being sent.
    public var pending: Int { state.withLock { $0.held } }

    /// Waits until no message is waiting, retrying or being sent; false after `timeout`.
    public func waitUntilIdle(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.held > 0 }) {
            // Polling is enough here: this is for tests and shutdown, never for a request.
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// For shutdown: takes no more messages, gives each held one a last attempt now (no more
    /// backoff), then stops the thread. False when `timeout` passed first (the rest is lost).
    @discardableResult
    public func drain(timeout: Duration) -> Bool {
        state.withLock { $0.closed = true }
        bell.signal()
        return waitUntilIdle(timeout: timeout)
    }

    // MARK: - The sending thread

    private enum Next {
        case send(Job)
        case sleep(until: DispatchTime?)
        case stop
    }

    private func run() {
        while true {
            let next = state.withLock { state -> Next in
                let now = DispatchTime.now()
                if let index = state.waiting.firstIndex(where: { state.closed || $0.due <= now }) {
                    state.sending += 1
                    return .send(state.waiting.remove(at: index))
                }
                if state.closed { return .stop }
                return .sleep(until: state.waiting.map(\.due).min())
            }
            switch next {
            case .stop: return
            case .sleep(let until?): _ = bell.wait(timeout: until)
            case .sleep(nil): bell.wait()
            case .send(let job): deliver(job)
            }
        }
    }

    private func deliver(_ job: Job) {
        var job = job
        job.attempts += 1
        let result = SMTPClient.send(
            job.bytes, from: job.from, to: job.to, server: server,
            connectTimeout: settings.connectTimeout, timeout: settings.timeout,
            certificateAuthorities: settings.certificateAuthorities)
        let label = "mail \(job.id) to …@\(loggable(String(job.to.domain)))"
        switch result {
        case .success:
            sentCount.add(1, ordering: .sequentiallyConsistent)
            log.info("\(label) sent via \(server.url) (attempt \(job.attempts))")
            state.withLock { $0.sending -= 1 }
        case .failure(let error):
            let closed = state.withLock { $0.closed }
            if job.attempts < settings.attempts, !closed {
                let delay = settings.retryDelays[job.attempts - 1]
                log.warning(
                    "\(label): attempt \(job.attempts) of \(settings.attempts) failed: \(loggable(error.description)); retrying in \(delay)"
                )
                job.due = .now() + .nanoseconds(Self.nanoseconds(delay))
                // One step, so that the message is never out of both `waiting` and `sending`.
                state.withLock { state in
                    state.sending -= 1
                    state.waiting.append(job)
                }
            } else {
                failedCount.add(1, ordering: .sequentiallyConsistent)
                log.error(
                    "\(label) not sent, gave up after \(job.attempts) attempts: \(loggable(error.description))")
                state.withLock { $0.sending -= 1 }
            }
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
