/// A reader's account. The password hash never leaves the store except for verification.
public struct User: Sendable, Equatable {
    public var id: Int
    public var username: String
}
