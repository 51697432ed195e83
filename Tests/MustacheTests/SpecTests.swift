import Foundation
import Mustache
import Testing

/// Runs the official Mustache spec (core modules plus ~inheritance; ~lambdas is not supported),
/// copied into Fixtures/mustache-spec, one parameterized case per spec test.
@Suite struct SpecTests {
    static let files = [
        "comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~inheritance",
    ]

    @Test func everySpecCaseIsLoaded() throws {
        #expect(try SpecCase.all().count == 163)
    }

    @Test(arguments: try SpecCase.all())
    func spec(_ specCase: SpecCase) throws {
        // A name no spec partial uses, so the template cannot shadow one of them.
        let name = "(spec template)"
        var sources = specCase.partials
        sources[name] = specCase.template
        let library = try TemplateLibrary(templates: sources, validateReferences: false)
        let rendered = try library.render(name, specCase.data.mustacheValue)
        #expect(rendered == specCase.expected, "\(specCase.description)")
    }
}

struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let description: String
    let data: JSONValue
    let template: String
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }

    static func all() throws -> [SpecCase] {
        try SpecTests.files.flatMap { file in
            guard
                let url = Bundle.module.url(
                    forResource: file, withExtension: "json", subdirectory: "Fixtures/mustache-spec")
            else { throw SpecError.missingFixture(file) }
            let spec = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: url))
            return spec.tests.map {
                SpecCase(
                    file: file, name: $0.name, description: $0.desc, data: $0.data, template: $0.template,
                    partials: $0.partials ?? [:], expected: $0.expected)
            }
        }
    }
}

enum SpecError: Error {
    case missingFixture(String)
}

private struct SpecFile: Decodable {
    struct Test: Decodable {
        let name: String
        let desc: String
        let data: JSONValue
        let template: String
        let partials: [String: String]?
        let expected: String
    }

    let tests: [Test]
}

/// Spec data is arbitrary JSON; decoding it into a closed enum keeps `true` distinct from `1`,
/// which an `Any`-based decoder would blur.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var mustacheValue: MustacheValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .array(let values): .list(values.map(\.mustacheValue))
        case .object(let values): .dictionary(MustacheDictionary(values.mapValues(\.mustacheValue)))
        }
    }
}
