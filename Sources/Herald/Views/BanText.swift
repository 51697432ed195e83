/// How long a ban lasts, in words of the page's language.
enum BanText {
    /// "until 3 December 2026, 10:00 UTC", or "permanently".
    static func length(until: Int?, _ messages: Messages = Messages.rendering) -> String {
        guard let until else { return messages["ban_for_permanent"] }
        return messages.format("ban_until", ["date": DateText.dayAndTime(until, in: messages.language)])
    }
}
