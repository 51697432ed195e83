/// How long a moderator's ban lasts (Discourse asks the same): the raw values are the ban form's
/// `duration` values.
enum BanLength: String, Sendable, CaseIterable {
    case oneDay = "1d"
    case sevenDays = "7d"
    case permanent

    /// Its length in seconds; nil for permanent.
    var seconds: Int? {
        switch self {
        case .oneDay: 86_400
        case .sevenDays: 7 * 86_400
        case .permanent: nil
        }
    }
}
