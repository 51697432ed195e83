#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in microseconds, for durations (never for dates: it starts at boot). Here, not
/// in HTTP, because the stores time their writes and searches too.
@inline(__always)
public func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}
