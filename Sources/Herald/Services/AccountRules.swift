import Foundation

/// What makes a username or a password acceptable (SPEC, "Pages and actions").
public struct AccountRules: Sendable {
    public static let usernameLength = 3...32
    public static let passwordLength = 8...256

    /// Lowercased common passwords, refused at registration.
    private let commonPasswords: Set<String>

    public init(commonPasswords: Set<String>) {
        self.commonPasswords = commonPasswords
    }

    /// Loads `Content/common-passwords.txt` (one per line).
    public static func load(contentDirectory: String) throws -> AccountRules {
        let path = contentDirectory + "/common-passwords.txt"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(description: "the common-password list \(path) is missing")
        }
        // Split on bytes: 30,000 lines through `String.split` cost ~40 ms of start-up.
        var words = Set<String>(minimumCapacity: 32_768)
        for line in Array(data).split(separator: UInt8(ascii: "\n")) {
            words.insert(String(decoding: line, as: UTF8.self).lowercased())
        }
        return AccountRules(commonPasswords: words)
    }

    /// Problems with a proposed username, in words a reader understands; empty when fine.
    public func usernameProblems(_ username: String) -> [String] {
        var problems: [String] = []
        if !Self.usernameLength.contains(username.unicodeScalars.count) {
            problems.append("Usernames are 3 to 32 characters long.")
        }
        let allowed = username.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
        }
        if !allowed { problems.append("Usernames may use only letters, digits, “_” and “-”.") }
        return problems
    }

    public func passwordProblems(_ password: String) -> [String] {
        let length = password.unicodeScalars.count
        if length < Self.passwordLength.lowerBound { return ["Passwords need at least 8 characters."] }
        if length > Self.passwordLength.upperBound { return ["Passwords can be at most 256 characters."] }
        if commonPasswords.contains(password.lowercased()) {
            return ["That password is one of the most common ones and easy to guess. Please choose another."]
        }
        return []
    }
}
