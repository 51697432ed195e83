import Foundation

/// Every language's messages, loaded from `Templates/messages/` and checked when the app starts,
/// the way `PageTemplate` checks the templates: a catalog missing a key the other has, a text
/// whose `{placeholders}` differ between languages, or a `{{t.key}}` in a template that no
/// catalog holds stops start-up with the file and key, never a request.
public struct MessageCatalogs: Sendable {
    public let site: InterfaceLanguage
    private let tables: [Messages]

    init(templatesDirectory: String, siteLanguage: String) throws {
        site = InterfaceLanguage.siteDefault(siteLanguage)
        let directory = templatesDirectory + "/messages"
        var sources: [InterfaceLanguage: [String: String]] = [:]
        for language in InterfaceLanguage.allCases {
            let path = directory + "/" + language.rawValue + ".messages"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MessageCatalogFile.Problem(description: "\(path): no such message catalog")
            }
            sources[language] = try MessageCatalogFile.parse(String(decoding: data, as: UTF8.self), path: path)
        }
        try Self.check(sources, templatesDirectory: templatesDirectory)
        let english = sources[.english] ?? [:]
        tables = InterfaceLanguage.allCases.map {
            Messages(language: $0, entries: sources[$0] ?? [:], english: english)
        }
    }

    public subscript(language: InterfaceLanguage) -> Messages {
        tables.first { $0.language == language } ?? tables[0]
    }

    /// The site's own language's messages: for what is sent off any request.
    public var siteMessages: Messages { self[site] }

    /// The keys `{{t.key}}` names in the templates of `directory`.
    static func templateKeys(in directory: String) throws -> Set<String> {
        var keys: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".mustache") {
            guard let data = FileManager.default.contents(atPath: directory + "/" + file) else { continue }
            var rest = Substring(String(decoding: data, as: UTF8.self))
            while let range = rest.firstRange(of: "{{t.") {
                let after = rest[range.upperBound...]
                let key = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                keys.insert(String(key))
                rest = after
            }
        }
        return keys
    }

    private static func check(_ sources: [InterfaceLanguage: [String: String]], templatesDirectory: String) throws {
        let english = sources[.english] ?? [:]
        for language in InterfaceLanguage.allCases where language != .english {
            let other = sources[language] ?? [:]
            if let key = english.keys.sorted().first(where: { other[$0] == nil }) {
                throw MessageCatalogFile.Problem(description: "\(language.rawValue).messages has no “\(key)”")
            }
            if let key = other.keys.sorted().first(where: { english[$0] == nil }) {
                throw MessageCatalogFile.Problem(description: "en.messages has no “\(key)” (\(language.rawValue) has)")
            }
            for (key, text) in english.sorted(by: { $0.key < $1.key })
            where MessageText.placeholders(in: text) != MessageText.placeholders(in: other[key] ?? "") {
                throw MessageCatalogFile.Problem(
                    description:
                        "“\(key)” has other {placeholders} in \(language.rawValue).messages than in en.messages")
            }
        }
        for key in try templateKeys(in: templatesDirectory).sorted() where english[key] == nil {
            throw MessageCatalogFile.Problem(description: "a template uses {{t.\(key)}}, which no catalog holds")
        }
    }
}
