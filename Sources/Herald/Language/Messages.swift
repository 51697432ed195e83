import Foundation
import Mustache

/// One language's messages, resolved once at start-up: the table Swift looks keys up in, the
/// Mustache value templates read as `{{t.key}}` (built once, so a page adds one value to its
/// layout, not a dictionary per request), and the way back from an English message raised by
/// code that knows no language (a service's reason, an `HTTPError`) to this language's words.
public final class Messages: Sendable {
    public let language: InterfaceLanguage
    private let entries: [String: String]
    /// English text → this language's text, for messages with no placeholders.
    private let fromEnglish: [String: String]
    /// For English messages with values in them ("Your comment is 2,345 characters long; …"): the
    /// English text as a pattern (its placeholders captured), found by its literal start first, so
    /// a text that starts otherwise (an article's title) costs one prefix check per pattern.
    private let fromEnglishPatterns: [EnglishPattern]

    private struct EnglishPattern: @unchecked Sendable {
        let prefix: String
        let regex: NSRegularExpression
        let names: [String]
        let own: String
    }
    /// `t` in the layout's values.
    let templateValue: MustacheValue

    init(language: InterfaceLanguage, entries: [String: String], english: [String: String]) {
        self.language = language
        self.entries = entries
        var fromEnglish: [String: String] = [:]
        if language != .english {
            // Keys in order, the first one kept: one English text has one translation, whatever
            // the order of a dictionary.
            for (key, text) in english.sorted(by: { $0.key < $1.key }) where !text.contains("{") {
                if fromEnglish[text] == nil, let own = entries[key] { fromEnglish[text] = own }
            }
        }
        self.fromEnglish = fromEnglish
        var patterns: [EnglishPattern] = []
        if language != .english {
            for (key, text) in english.sorted(by: { $0.key < $1.key }) where text.contains("{") {
                guard let own = entries[key], let pattern = Self.pattern(of: text) else { continue }
                patterns.append(
                    EnglishPattern(prefix: pattern.prefix, regex: pattern.regex, names: pattern.names, own: own))
            }
        }
        fromEnglishPatterns = patterns
        var dictionary = MustacheDictionary()
        for (key, text) in entries.sorted(by: { $0.key < $1.key }) { dictionary[key] = .string(text) }
        templateValue = .dictionary(dictionary)
    }

    /// The text of `key`. A key missing from the catalog (a test and the start-up check prevent
    /// it) shows as itself rather than failing the page.
    public subscript(key: String) -> String { entries[key] ?? key }

    /// The text of `key` with each `{name}` replaced by its value (plain text: the page escapes it).
    public func format(_ key: String, _ values: KeyValuePairs<String, String>) -> String {
        MessageText.fill(self[key], values)
    }

    public func format(_ key: String, _ values: [String: String]) -> String {
        MessageText.fill(self[key], values)
    }

    /// `message` in this language when it is one of the catalog's English texts, or one of them
    /// with its `{placeholders}` filled (the values carried over); else as it is.
    public func translated(_ message: String) -> String {
        if let own = fromEnglish[message] { return own }
        for pattern in fromEnglishPatterns where message.hasPrefix(pattern.prefix) {
            let whole = NSRange(message.startIndex..., in: message)
            guard let match = pattern.regex.firstMatch(in: message, range: whole), match.range == whole else {
                continue
            }
            var values: [String: String] = [:]
            for (index, name) in pattern.names.enumerated() {
                guard let range = Range(match.range(at: index + 1), in: message) else { continue }
                values[name] = String(message[range])
            }
            return MessageText.fill(pattern.own, values)
        }
        return message
    }

    /// An English text with placeholders as a whole-text pattern: its literal start (at least a
    /// few characters, so that it is worth checking first), the expression, the names in order.
    private static func pattern(of text: String) -> (prefix: String, regex: NSRegularExpression, names: [String])? {
        var expression = "^"
        var names: [String] = []
        var prefix: String?
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let literal = String(rest[..<open])
            if prefix == nil { prefix = literal }
            expression += NSRegularExpression.escapedPattern(for: literal) + "(.+?)"
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        expression += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        guard let prefix, prefix.count >= 4, let regex = try? NSRegularExpression(pattern: expression) else {
            return nil
        }
        return (prefix, regex, names)
    }

    func has(_ key: String) -> Bool { entries[key] != nil }

    /// The messages of the page being rendered, set by `Views` around each rendering: view models
    /// are made by controllers that need not know the language, and read it here for what they
    /// write in Swift (dates, counts' words).
    @TaskLocal static var rendering: Messages = .keysOnly

    /// No catalog: each key shows as itself (a context made outside the app, in a test).
    static let keysOnly = Messages(language: .english, entries: [:], english: [:])
}

/// Filling and reading `{name}` placeholders.
enum MessageText {
    static func fill(_ text: String, _ values: some Sequence<(key: String, value: String)>) -> String {
        guard text.contains("{") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 32)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                result += rest[open...]
                return result
            }
            let name = rest[rest.index(after: open)..<close]
            if let value = values.first(where: { $0.key == name })?.value {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    /// The names of the `{name}` placeholders in `text`, sorted.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names.sorted()
    }
}
