import Synchronization
import TextSupport

/// Series shown in the Prometheus text format (version 0.0.4).
///
/// Two kinds: each route's request counts and latency histogram (`RouteSeries`, updated by
/// `RequestMetrics` as requests are answered), and values the parts of the app already count for
/// themselves (the page cache's hits, the hashing queue…), read only when the metrics are shown, so
/// counting costs those parts nothing more. Labels are values the code chooses (a route pattern, a
/// reason) — never anything a client sent — so the number of series stays bounded.
public final class Metrics: Sendable {
    public enum Kind: String, Sendable { case counter, gauge }

    /// Upper bounds of latency buckets, in seconds.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    private struct Family {
        let help: String
        let kind: Kind
        /// Each series: its label text and how to read its value.
        var series: [(labels: String, read: @Sendable () -> Double)] = []
    }

    private let families = Mutex<[String: Family]>([:])
    /// The per-route request series (`RequestMetrics`), shown first.
    private let requestSeries = Mutex<[RouteSeries]>([])

    /// Begins the names of the request series (`herald` → `herald_http_requests_total`): the app's
    /// own name, which HTTP does not know.
    let prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// Declares a series family; series of undeclared names are ignored.
    public func declare(_ name: String, _ kind: Kind, help: String) {
        families.withLock { families in
            if families[name] == nil { families[name] = Family(help: help, kind: kind) }
        }
    }

    /// A series whose value is read when the metrics are shown.
    public func gauge(_ name: String, _ labels: [(String, String)] = [], read: @escaping @Sendable () -> Double) {
        let key = Self.labelText(labels)
        families.withLock { $0[name]?.series.append((key, read)) }
    }

    func register(requestSeries series: [RouteSeries]) {
        requestSeries.withLock { $0 = series }
    }

    /// Every series, in the Prometheus text format.
    public func exposition() -> String {
        var text = ""
        let routes = requestSeries.withLock { $0 }
        if !routes.isEmpty {
            let lines = routes.map { $0.lines(prefix: prefix) }
            text += "# HELP \(prefix)_http_requests_total Requests answered, by route pattern and status.\n"
            text += "# TYPE \(prefix)_http_requests_total counter\n" + lines.map(\.requests).joined()
            text += "# HELP \(prefix)_http_request_duration_seconds Time to answer a request, by route pattern.\n"
            text += "# TYPE \(prefix)_http_request_duration_seconds histogram\n" + lines.map(\.duration).joined()
        }
        let snapshot = families.withLock { $0 }
        for name in snapshot.keys.sorted() {
            guard let family = snapshot[name] else { continue }
            text += "# HELP \(name) \(family.help)\n# TYPE \(name) \(family.kind.rawValue)\n"
            for series in family.series.sorted(by: { $0.labels < $1.labels }) {
                text += "\(name)\(series.labels.isEmpty ? "" : "{\(series.labels)}") \(Self.number(series.read()))\n"
            }
        }
        return text
    }

    /// `a="x",b="y"`, values escaped as the format requires.
    private static func labelText(_ labels: [(String, String)]) -> String {
        labels.map { name, value in "\(name)=\"\(escapedLabelValue(value))\"" }.joined(separator: ",")
    }

    static func escapedLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// One route's request counts (by status) and latency histogram. Each route has its own lock,
/// taken once per request, and nothing is built per request but the update itself.
public final class RouteSeries: Sendable {
    private struct State {
        var statuses: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: Metrics.latencyBuckets.count)
        var sum = 0.0
        var count = 0
    }

    let route: String
    private let state = Mutex(State())

    init(route: String) {
        self.route = route
    }

    func record(status: Int, seconds: Double) {
        let bucket = Metrics.latencyBuckets.firstIndex { seconds <= $0 }
        state.withLock { state in
            state.statuses[status, default: 0] += 1
            if let bucket { state.buckets[bucket] += 1 }
            state.sum += seconds
            state.count += 1
        }
    }

    /// The route's lines of the two families.
    func lines(prefix: String) -> (requests: String, duration: String) {
        let snapshot = state.withLock { $0 }
        let label = "route=\"" + Metrics.escapedLabelValue(route) + "\""
        var requests = ""
        for (status, count) in snapshot.statuses.sorted(by: { $0.key < $1.key }) {
            requests += "\(prefix)_http_requests_total{\(label),status=\"\(status)\"} \(count)\n"
        }
        guard snapshot.count > 0 else { return (requests, "") }
        var duration = ""
        var cumulative = 0
        for (index, bound) in Metrics.latencyBuckets.enumerated() {
            cumulative += snapshot.buckets[index]
            duration += "\(prefix)_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
        }
        duration += "\(prefix)_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(snapshot.count)\n"
        duration += "\(prefix)_http_request_duration_seconds_sum{\(label)} \(snapshot.sum)\n"
        duration += "\(prefix)_http_request_duration_seconds_count{\(label)} \(snapshot.count)\n"
        return (requests, duration)
    }
}

/// Counts every request by the route pattern that answered it (never the raw path) and its
/// status, and times it per route. The series for every route exist from the start, so a request
/// finds its own with one dictionary lookup and updates it under that route's lock alone.
public struct RequestMetrics<Context>: Middleware {
    private let series: [String: RouteSeries]
    private let unmatched: RouteSeries
    private let routeOf: @Sendable (Request) -> String

    public init(metrics: Metrics, routes: [String], routeOf: @escaping @Sendable (Request) -> String) {
        var series: [String: RouteSeries] = [:]
        for route in routes + ["unmatched"] { series[route] = series[route] ?? RouteSeries(route: route) }
        self.series = series
        self.unmatched = series["unmatched"] ?? RouteSeries(route: "unmatched")
        self.routeOf = routeOf
        metrics.register(requestSeries: series.values.sorted { $0.route < $1.route })
    }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        let start = monotonicMicroseconds()
        let routeSeries = series[routeOf(request)] ?? unmatched
        var status = 500
        defer { routeSeries.record(status: status, seconds: Double(monotonicMicroseconds() - start) / 1_000_000) }
        let response = try next(request, &context)
        status = response.status.code
        return response
    }
}
