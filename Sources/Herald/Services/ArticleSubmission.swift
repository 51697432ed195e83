import Foundation

/// An article form as the editor sent it, before any rule was applied: what goes back into the
/// form, unchanged, when something in it is refused.
struct ArticleSubmission: Sendable, Equatable {
    var title = ""
    var summary = ""
    var section = ""
    var byline = ""
    var body = ""
    var imageAlt = ""
    var publishAt = ""
    /// The article's own language: "" for the site's, `en`, `zh-Hant`, or `other` with the tag in
    /// `languageOther` (a BCP 47 tag, checked by `Newsroom`).
    var language = ""
    var languageOther = ""
    /// The uploaded image's bytes; nil when no file was chosen.
    var image: [UInt8]?
    /// Take the current image off the article.
    var removeImage = false

    /// The form's fields, by their names in the form (and in SPEC).
    enum Field: String, Sendable, CaseIterable {
        case title, summary, section, byline, body, image
        case imageAlt = "image_alt"
        case publishAt = "publish_at"
        case removeImage = "remove_image"
        case language
        case languageOther = "language_other"
        case action
        /// "Insert image": a picture for the text, its description, and where the script's
        /// cursor was (`EditorController+InsertImage`); never saved as fields of the article.
        case insertImage = "insert_image"
        case insertAlt = "insert_alt"
        case insertAt = "insert_at"
    }

    /// The text fields a resumable save keeps (the image travels as the parked form's file).
    static let textFields: [Field] = [
        .title, .summary, .section, .byline, .body, .imageAlt, .publishAt, .removeImage, .language, .languageOther,
        .action,
    ]

    /// The form as sent: each field read by its name in `Field` (absent: empty), and the
    /// uploaded image's bytes.
    init(field: (Field) -> String?, image: [UInt8]?) {
        title = field(.title) ?? ""
        summary = field(.summary) ?? ""
        section = field(.section) ?? ""
        byline = field(.byline) ?? ""
        body = field(.body) ?? ""
        imageAlt = field(.imageAlt) ?? ""
        publishAt = field(.publishAt) ?? ""
        removeImage = field(.removeImage) != nil
        language = field(.language) ?? ""
        languageOther = field(.languageOther) ?? ""
        self.image = image
    }

    /// The form of an existing article, for its edit page.
    init(_ article: Article) {
        title = article.title
        summary = article.summary
        section = article.section
        byline = article.author
        body = article.body
        imageAlt = article.image?.alt ?? ""
        publishAt = article.isDraft && article.publishedAt == 0 ? "" : PublishTime.formValue(article.publishedAt)
        switch article.language {
        case nil: language = ""
        case let tag? where Self.languageChoices.contains(tag): language = tag
        case let tag?:
            language = "other"
            languageOther = tag
        }
    }

    /// The languages the form's select names (beside "the site's" and "other").
    static let languageChoices = ["en", "zh-Hant"]

    init() {}
}

/// `publish_at` as forms carry it: ISO 8601, either with a zone (`2026-12-01T09:30:00+01:00`)
/// or without one, as a browser's `datetime-local` input sends it (`2026-12-01T09:30`), which
/// Herald takes as UTC and says so next to the field.
enum PublishTime {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 40 else { return nil }
        return FeedDate.rfc3339(trimmed) ?? FeedDate.rfc3339(trimmed + "Z")
    }

    /// `2026-12-01T09:30`: what a `datetime-local` input shows (UTC).
    static func formValue(_ seconds: Int) -> String {
        String(DateText.rfc3339(seconds).prefix(16))
    }
}
