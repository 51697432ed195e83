/// The cookies Herald sets (SPEC, "Cookies"). All are HttpOnly and SameSite=Lax.
enum CookieNames {
    static let session = "herald_session"
    static let intent = "herald_intent"
    /// Anonymous visitors' CSRF binding: random, meaningless on its own.
    static let anonymous = "herald_csrf"
    static let flash = "herald_flash"
}
