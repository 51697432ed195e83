import Synchronization

/// Counters, gauges and histograms, shown in the Prometheus text format (version 0.0.4).
///
/// Series are named once, with their help text, and labelled by values the code chooses (a route
/// pattern, a status, a reason) — never by anything a client sent, so the number of series stays
/// bounded. Each update is one short lock.
public final class Metrics: Sendable {
    public enum Kind: String, Sendable { case counter, gauge, histogram }

    /// Upper bounds of latency buckets, in seconds.
    public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct Family {
        let help: String
        let kind: Kind
        var values: [String: Double] = [:]
        /// Histograms: per label set, the count in each bucket (not cumulative), the sum and the count.
        var histograms: [String: Histogram] = [:]
    }

    private struct Histogram {
        var buckets: [Double]
        var sum = 0.0
        var count = 0.0
    }

    private let families = Mutex<[String: Family]>([:])
    /// Gauges read when the metrics are shown (queue depths), by name and labels.
    private let readers = Mutex<[(name: String, labels: String, read: @Sendable () -> Double)]>([])

    public init() {}

    /// Declares a series family; updates to undeclared names are ignored.
    public func declare(_ name: String, _ kind: Kind, help: String) {
        families.withLock { families in
            if families[name] == nil { families[name] = Family(help: help, kind: kind) }
        }
    }

    /// Adds `amount` to a counter (or sets a gauge with `set`).
    public func add(_ name: String, _ labels: [(String, String)] = [], _ amount: Double = 1) {
        let key = Self.labelText(labels)
        families.withLock { families in
            families[name]?.values[key, default: 0] += amount
        }
    }

    public func set(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        let key = Self.labelText(labels)
        families.withLock { families in
            families[name]?.values[key] = value
        }
    }

    /// Records one observation (seconds) in a histogram.
    public func observe(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        let key = Self.labelText(labels)
        families.withLock { families in
            guard families[name] != nil else { return }
            var histogram =
                families[name]?.histograms[key]
                ?? Histogram(buckets: [Double](repeating: 0, count: Self.latencyBuckets.count))
            if let bucket = Self.latencyBuckets.firstIndex(where: { value <= $0 }) { histogram.buckets[bucket] += 1 }
            histogram.sum += value
            histogram.count += 1
            families[name]?.histograms[key] = histogram
        }
    }

    /// A gauge whose value is read when the metrics are shown.
    public func gauge(_ name: String, _ labels: [(String, String)] = [], read: @escaping @Sendable () -> Double) {
        let key = Self.labelText(labels)
        readers.withLock { $0.append((name, key, read)) }
    }

    /// Every series, in the Prometheus text format.
    public func exposition() -> String {
        for reader in readers.withLock({ $0 }) { set(reader.name, raw: reader.labels, reader.read()) }
        let snapshot = families.withLock { $0 }
        var text = ""
        for name in snapshot.keys.sorted() {
            guard let family = snapshot[name] else { continue }
            text += "# HELP \(name) \(family.help)\n# TYPE \(name) \(family.kind.rawValue)\n"
            for (labels, value) in family.values.sorted(by: { $0.key < $1.key }) {
                text += "\(name)\(labels.isEmpty ? "" : "{\(labels)}") \(Self.number(value))\n"
            }
            for (labels, histogram) in family.histograms.sorted(by: { $0.key < $1.key }) {
                var cumulative = 0.0
                let prefix = labels.isEmpty ? "" : labels + ","
                for (index, bound) in Self.latencyBuckets.enumerated() {
                    cumulative += histogram.buckets[index]
                    text += "\(name)_bucket{\(prefix)le=\"\(Self.number(bound))\"} \(Self.number(cumulative))\n"
                }
                text += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(Self.number(histogram.count))\n"
                text += "\(name)_sum\(labels.isEmpty ? "" : "{\(labels)}") \(histogram.sum)\n"
                text += "\(name)_count\(labels.isEmpty ? "" : "{\(labels)}") \(Self.number(histogram.count))\n"
            }
        }
        return text
    }

    private func set(_ name: String, raw labels: String, _ value: Double) {
        families.withLock { families in
            families[name]?.values[labels] = value
        }
    }

    /// `a="x",b="y"`, values escaped as the format requires.
    private static func labelText(_ labels: [(String, String)]) -> String {
        labels.map { name, value in
            var escaped = ""
            for character in value {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                default: escaped.append(character)
                }
            }
            return "\(name)=\"\(escaped)\""
        }.joined(separator: ",")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Counts every request by the route pattern that answered it (never the raw path) and its
/// status, and times it per route.
public struct RequestMetrics<Context>: Middleware {
    private let metrics: Metrics
    private let routeOf: @Sendable (Request) -> String

    public init(metrics: Metrics, routeOf: @escaping @Sendable (Request) -> String) {
        self.metrics = metrics
        self.routeOf = routeOf
        metrics.declare("herald_http_requests_total", .counter, help: "Requests answered, by route pattern and status.")
        metrics.declare(
            "herald_http_request_duration_seconds", .histogram, help: "Time to answer a request, by route pattern.")
    }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        let start = monotonicMicroseconds()
        let route = routeOf(request)
        var status = 500
        defer {
            let seconds = Double(monotonicMicroseconds() - start) / 1_000_000
            metrics.add("herald_http_requests_total", [("route", route), ("status", String(status))])
            metrics.observe("herald_http_request_duration_seconds", [("route", route)], seconds)
        }
        let response = try next(request, &context)
        status = response.status.code
        return response
    }
}
