#if canImport(Glibc)
    import Glibc
#endif

/// The time, injectable so tests can move it forward (session expiry, throttling windows).
public struct Clock: Sendable {
    public let now: @Sendable () -> Int

    public init(now: @escaping @Sendable () -> Int) {
        self.now = now
    }

    public static let system = Clock { Int(time(nil)) }
}
