/// What an account may do beyond reading (SPEC, "Roles and the command line"). Everyone with an
/// account is a reader; `admin` is both an editor and a moderator, and manages roles.
public struct Roles: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let editor = Roles(rawValue: 1)
    public static let moderator = Roles(rawValue: 2)
    public static let admin = Roles(rawValue: 4)

    /// Whether these roles grant `role` (an admin holds every role).
    public func grants(_ role: Role) -> Bool {
        contains(.admin) || contains(role.bit)
    }

    /// The role names held, for listings and exports.
    public var names: [String] { Role.allCases.filter { contains($0.bit) }.map(\.rawValue) }
}

/// One role, by the name the command line and exports use.
public enum Role: String, Sendable, CaseIterable {
    case editor, moderator, admin

    var bit: Roles {
        switch self {
        case .editor: .editor
        case .moderator: .moderator
        case .admin: .admin
        }
    }
}
