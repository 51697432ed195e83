/// An email address as Herald accepts it (issue #16): one `@`, a dot in the domain, at most 254
/// bytes, no spaces or control characters; stored lower-cased so one address is one account.
enum EmailAddress {
    static let maximumBytes = 254

    /// The normalised address, or nil when it is not acceptable.
    static func normalized(_ text: String) -> String? {
        let trimmed = text.unicodeScalars.drop { $0.properties.isWhitespace }
        let address = String(String.UnicodeScalarView(trimmed)).lowercased()
            .trimmingSuffix { $0.properties.isWhitespace }
        guard !address.isEmpty, address.utf8.count <= maximumBytes,
            address.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0.value >= 0x20 && $0.value != 0x7F })
        else { return nil }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        let domain = parts[1]
        guard let dot = domain.firstIndex(of: "."), dot != domain.startIndex, domain.last != "." else { return nil }
        // And one the mail code can send to (it also refuses characters that break headers).
        guard (try? MailAddress(address)) != nil else { return nil }
        return address
    }
}

extension String {
    fileprivate func trimmingSuffix(while isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, isTrimmed(last) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
