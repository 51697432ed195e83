import Mustache

/// A mail's subject, plain text and HTML, written from the catalogs in the reader's language:
/// `<key>_subject` and `<key>_text` with their `{placeholders}` filled. The HTML part is the text's
/// paragraphs, each escaped, and the paragraph that is the link alone becomes a link named
/// `<key>_link_label` — so a translator edits one text per mail, not two.
struct MailWords {
    let subject: String
    let text: String
    let html: String

    init(_ messages: Messages, _ key: String, link: String? = nil, values: [String: String]) {
        var values = values
        if let link { values["link"] = link }
        subject = messages.format(key + "_subject", values)
        text = messages.format(key + "_text", values)
        let label = link == nil ? "" : messages.format(key + "_link_label", values)
        html = text.split(separator: "\n\n").map { paragraph in
            let lines = paragraph.split(separator: "\n").joined(separator: " ")
            if let link, lines == link {
                return "<p><a href=\"\(escapeHTML(link))\">\(escapeHTML(label))</a></p>"
            }
            return "<p>" + escapeHTML(lines) + "</p>"
        }.joined(separator: "\n")
    }
}
