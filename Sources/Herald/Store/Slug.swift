import Foundation

/// URL slugs from titles: lowercase ASCII letters and digits joined by single hyphens.
public enum Slug {
    public static let maximumLength = 80

    public static func make(from title: String, fallback: String = "article") -> String {
        // "Café Zoë" → "cafe zoe": fold accents so Latin titles keep readable slugs.
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            let isWordCharacter = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar))
            if isWordCharacter {
                if pendingHyphen && !slug.isEmpty { slug.append("-") }
                slug.unicodeScalars.append(scalar)
                pendingHyphen = false
            } else if scalar != "'" && scalar != "’" {
                pendingHyphen = true
            }
            if slug.utf8.count >= maximumLength { break }
        }
        var trimmed = Substring(slug.prefix(maximumLength))
        while trimmed.last == "-" { trimmed = trimmed.dropLast() }
        return trimmed.isEmpty ? fallback : trimmed.lowercased()
    }
}
