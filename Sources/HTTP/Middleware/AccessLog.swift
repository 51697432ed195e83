import Synchronization
import TextSupport

/// One line per request: method, path, status, body bytes, microseconds — and, as fields for a
/// JSON log, the route pattern and a request id, which is also sent back as `X-Request-Id` (a
/// well-formed one from the proxy in front is kept, so both logs name the request alike).
///
/// The query string, cookies and form values are never logged: they can hold secrets. Nor is the
/// token of a link whose path carries one (the app names those paths, by prefix): that path is
/// logged with the token replaced.
public struct AccessLog<Context>: Middleware {
    private let log: Logger
    private let routeOf: (@Sendable (Request) -> String)?
    /// Paths whose last segment is a secret (`/password/reset/`).
    private let secretPrefixes: [String]

    public init(log: Logger, secretPrefixes: [String] = [], routeOf: (@Sendable (Request) -> String)? = nil) {
        self.log = log
        self.secretPrefixes = secretPrefixes
        self.routeOf = routeOf
    }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        let start = monotonicMicroseconds()
        let id = RequestID.from(request.headers["X-Request-Id"]) ?? RequestID.next()
        var response: Response
        do {
            response = try next(request, &context)
        } catch {
            record(request, id: id, status: 500, bytes: 0, start: start)
            throw error
        }
        response.headers.set("X-Request-Id", id)
        record(request, id: id, status: response.status.code, bytes: response.body.count, start: start)
        return response
    }

    private func record(_ request: Request, id: String, status: Int, bytes: Int, start: Int64) {
        // With the access log off, nothing of the line is worked out.
        guard log.writes(.info) else { return }
        let microseconds = monotonicMicroseconds() - start
        let path = Self.redacted(loggable(request.path), secretPrefixes: secretPrefixes)
        log.log(
            .info, "\(request.method) \(path) \(status) \(bytes) \(microseconds)us",
            fields: [
                ("method", .text(request.method.rawValue)), ("path", .text(path)),
                ("route", .text(routeOf?(request) ?? "")), ("status", .number(Int64(status))),
                ("bytes", .number(Int64(bytes))), ("microseconds", .number(microseconds)), ("request_id", .text(id)),
            ])
    }

    /// `path` with the secret replaced when it starts with one of `secretPrefixes`.
    static func redacted(_ path: String, secretPrefixes: [String]) -> String {
        for prefix in secretPrefixes where path.hasPrefix(prefix) {
            return prefix + "[token]"
        }
        return path
    }
}

/// Request ids: a random prefix per process and a counter, unique across servers and restarts.
enum RequestID {
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        return String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16)
    }()
    private static let counter = Atomic<Int>(0)

    static func next() -> String {
        prefix + "-" + String(counter.add(1, ordering: .relaxed).newValue, radix: 16)
    }

    /// A proxy's id when it is 1–64 letters, digits, `-` or `_`; nil otherwise.
    static func from(_ header: String?) -> String? {
        guard let header, (1...64).contains(header.utf8.count),
            header.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        return header
    }
}
