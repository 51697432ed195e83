import Foundation
import TestSupport
import Testing

@testable import Herald

@Suite struct SecretKeysTests {
    @Test func aGeneratedKeyIsOwnerOnlyAndReused() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let first = try SecretKeys.load(secret: nil, previous: [], dataDirectory: directory)
        let path = directory + "/" + SecretKeys.keyFileName
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try SecretKeys.load(secret: nil, previous: [], dataDirectory: directory)
        #expect(first.current.id == again.current.id, "the same key after a restart")
        let other = try makeTemporaryDirectory()
        defer { removeDirectory(other) }
        #expect(try SecretKeys.load(secret: nil, previous: [], dataDirectory: other).current.id != first.current.id)
    }

    @Test func aConfiguredSecretWinsAndMustBeLongEnough() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let keys = try SecretKeys.load(
            secret: "shared-between-all-nodes", previous: ["the-one-before-this"], dataDirectory: directory)
        #expect(keys.current.id == SecretKeys(current: "shared-between-all-nodes").current.id)
        #expect(keys.key(id: SecretKeys(current: "the-one-before-this").current.id) != nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/" + SecretKeys.keyFileName))
        #expect(throws: UsageError.self) {
            try SecretKeys.load(secret: "short", previous: [], dataDirectory: directory)
        }
    }

    @Test func previousSecretsAreTrimmedAndHeldToTheSameLengthRule() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let keys = try SecretKeys.load(
            secret: "shared-between-all-nodes", previous: [" the-one-before-this ", "", "  "],
            dataDirectory: directory)
        #expect(keys.previous.count == 1)
        #expect(keys.key(id: SecretKeys(current: "the-one-before-this").current.id) != nil, "trimmed")
        for previous in [["short"], ["the-one-before-this", " tiny  "]] {
            #expect(throws: UsageError.self) {
                try SecretKeys.load(secret: "shared-between-all-nodes", previous: previous, dataDirectory: directory)
            }
            #expect(throws: UsageError.self) {
                try SecretKeys.load(secret: nil, previous: previous, dataDirectory: directory)
            }
        }
    }
}
