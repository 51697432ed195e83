import Synchronization
import TextSupport

/// Passes at most `linesPerSecond` lines to the log and counts the rest, so a
/// noisy source (libmicrohttpd under a flood of bad connections) cannot fill the disk.
final class RateLimitedLog: Sendable {
    private struct Window {
        var second: Int64 = 0
        var written = 0
        var suppressed = 0
    }

    private let log: Logger
    private let linesPerSecond: Int
    private let window = Mutex(Window())

    init(log: Logger, linesPerSecond: Int) {
        self.log = log
        self.linesPerSecond = linesPerSecond
    }

    func write(_ line: String) {
        let now = monotonicMicroseconds() / 1_000_000
        let (allowed, suppressedBefore): (Bool, Int) = window.withLock { window in
            var suppressedBefore = 0
            if window.second != now {
                suppressedBefore = window.suppressed
                window = Window(second: now)
            }
            window.written += 1
            if window.written > linesPerSecond { window.suppressed += 1 }
            return (window.written <= linesPerSecond, suppressedBefore)
        }
        if suppressedBefore > 0 { log.warning("(\(suppressedBefore) similar lines suppressed)") }
        if allowed { log.warning(line) }
    }
}
