extension String {
    /// Runs of whitespace as one space, none at either end: how a title, a section's name, a byline
    /// or a moderator's note is kept.
    public var singleLine: String {
        split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
