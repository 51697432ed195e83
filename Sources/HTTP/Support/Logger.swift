import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Line-oriented logging: one `write(2)` per line, so lines from many threads never interleave.
///
/// Never log cookie values, form fields or secrets: callers pass only what is safe to keep.
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
        case debug, info, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// Receives finished lines (without the trailing newline).
    public typealias Sink = @Sendable (Level, String) -> Void
    /// Receives a message with named fields (a request's method, route, status…); a sink that
    /// has no use for fields writes the message alone.
    public typealias FieldSink = @Sendable (Level, String, [(String, LogField)]) -> Void

    public let minimumLevel: Level
    private let sink: FieldSink
    /// Whether the sink writes fields: only then are they worked out.
    private let wantsFields: Bool

    public init(minimumLevel: Level = .info, sink: @escaping Sink = Logger.standardError) {
        self.minimumLevel = minimumLevel
        self.sink = { level, message, _ in sink(level, message) }
        self.wantsFields = false
    }

    public init(minimumLevel: Level = .info, fieldSink: @escaping FieldSink) {
        self.minimumLevel = minimumLevel
        self.sink = fieldSink
        self.wantsFields = true
    }

    /// `message` with named fields: a JSON log writes them as keys; the text log ignores them
    /// (its message already says what matters) and they are never worked out.
    public func log(
        _ level: Level, _ message: @autoclosure () -> String, fields: @autoclosure () -> [(String, LogField)]
    ) {
        guard level >= minimumLevel else { return }
        sink(level, message(), wantsFields ? fields() : [])
    }

    /// Whether a message at `level` would be written.
    public func writes(_ level: Level) -> Bool { level >= minimumLevel }

    /// A logger that drops everything (for tests that don't look at logs).
    public static let silent = Logger(minimumLevel: .error) { _, _ in }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        sink(level, message(), [])
    }

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// Writes `2026-11-29T20:01:02Z level message` to standard error.
    public static let standardError: Sink = { level, message in
        var line = Array(utcTimestamp().utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: level.description.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: message.utf8)
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// A value in a structured log line.
public enum LogField: Sendable {
    case text(String)
    case number(Int64)
}

extension Logger {
    /// One JSON object a line on standard error: `time`, `level`, `message`, then the fields.
    public static let jsonStandardError: FieldSink = { level, message, fields in
        var line = "{\"time\":\"" + utcTimestamp() + "\",\"level\":\"" + level.description + "\",\"message\":"
        line += jsonString(message)
        for (name, value) in fields {
            line += "," + jsonString(name) + ":"
            switch value {
            case .text(let text): line += jsonString(text)
            case .number(let number): line += String(number)
            }
        }
        line += "}\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// A JSON string literal: quotes, backslashes and every control character escaped.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`, without Foundation's formatters.
public func utcTimestamp(_ seconds: Int = Int(time(nil))) -> String {
    UTCDate(secondsSince1970: seconds).rfc3339
}

/// `text` made safe for a log line: control characters (a decoded `%0A` in a path could forge a
/// line) become `\u{…}` escapes, and it is cut to 300 characters.
public func loggable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(300) {
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
