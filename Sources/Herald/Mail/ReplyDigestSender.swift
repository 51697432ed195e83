import Dispatch
import Foundation
import HTTP
import Synchronization

/// Sends the reply digests off the request path: a thread of its own runs a round every
/// `period` (`HERALD_REPLY_MAIL_CHECK_SECONDS`), each claiming and queueing the digests that are
/// due. Every server of a site may run it: a digest is claimed in a transaction (`ReplyMailStore`),
/// so each reply goes out in one mail whichever server claims it. Tests call `runOnce(now:)`.
final class ReplyDigestSender: Sendable {
    private let replyMail: ReplyMail
    private let mail: ReplyDigestMail
    private let clock: Clock
    private let log: Logger
    private let stopped = Mutex(false)
    /// Rung by `stop`, so the thread does not sleep out its period at shutdown.
    private let bell = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    init(replyMail: ReplyMail, mail: ReplyDigestMail, clock: Clock, log: Logger) {
        self.replyMail = replyMail
        self.mail = mail
        self.clock = clock
        self.log = log
    }

    /// One round at `now`: claims each due reader's digest and queues it; a digest that cannot
    /// be queued is released, its replies kept for the next round. Returns the mails queued.
    @discardableResult
    func runOnce(now: Int) -> Int {
        var queued = 0
        do {
            for userID in try replyMail.dueReaders(now: now) {
                guard let digest = try replyMail.claimDigest(for: userID, now: now) else { continue }
                if mail.send(digest, unsubscribeToken: replyMail.unsubscribeToken(for: digest)) {
                    queued += 1
                } else {
                    try replyMail.release(digest)
                }
            }
        } catch {
            // The database is away (a restart): what was not claimed waits for the next round.
            log.warning("reply digests: round stopped: \(error)")
        }
        return queued
    }

    /// Starts the rounds on a thread of their own, the first one `period` from now.
    func start(every period: Duration) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let seconds = Double(period.components.seconds) + Double(period.components.attoseconds) / 1e18
        let thread = Thread { [self] in
            while bell.wait(timeout: .now() + seconds) == .timedOut, !stopped.withLock({ $0 }) {
                runOnce(now: clock.now())
            }
            finished.signal()
        }
        thread.name = "reply-digests"
        thread.start()
    }

    /// Stops the rounds (at shutdown, before the mailer drains); waits for a round in progress.
    func stop() {
        stopped.withLock { $0 = true }
        guard running.load(ordering: .acquiring) else { return }
        bell.signal()
        finished.wait()
    }
}
