#if canImport(Glibc)
    import Glibc
#endif

/// Process signals: SIGPIPE ignored, SIGINT/SIGTERM received synchronously.
public enum Signals {
    /// Call first thing in `main`, before any thread starts, so that every thread
    /// inherits the mask and the termination signals reach `waitForTermination` only.
    public static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        var set = terminationSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks until SIGINT or SIGTERM arrives; returns its number.
    public static func waitForTermination() -> Int32 {
        var set = terminationSet()
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }

    private static func terminationSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
