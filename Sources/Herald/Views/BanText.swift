/// How long a ban lasts, in words: the login refusal, the moderator's flash and the moderation
/// record say it the same way.
enum BanText {
    /// "until 3 December 2026, 10:00 UTC", or "permanently".
    static func length(until: Int?) -> String {
        until.map { "until " + DateText.dayAndTime($0) + " UTC" } ?? "permanently"
    }
}
