import Foundation
import Mustache

/// The reply digest as a mail: the article and each reply (author, an excerpt in plain text, a
/// link to the comment), a plain-text part and a short HTML part, and RFC 8058's one-click
/// unsubscribe headers. Every link is built from the site's address (`HERALD_BASE_URL`), never
/// from a request's `Host`; every word comes from `ReplyMailWords`.
struct ReplyDigestMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let site: SiteAddress
    /// The words of each mail come from the catalog of the reader's own language.
    let catalogs: MessageCatalogs

    /// Replies shown in one mail; the rest are counted, with a link to all of them.
    static let shownReplies = 30
    /// Characters of a reply shown (a comment may be 2,000).
    static let excerptLength = 300

    /// `/mail/unsubscribe/{token}`: where the one-click POST goes, and the page a person opens.
    static func unsubscribePath(_ token: String) -> String { "/mail/unsubscribe/" + token }

    /// Queues the digest; false when it could not be (its replies then wait for the next round).
    func send(_ digest: ReplyDigest, unsubscribeToken: String) -> Bool {
        let base = site.baseURL
        let unsubscribe = base + Self.unsubscribePath(unsubscribeToken)
        guard let headers = try? Self.unsubscribeHeaders(unsubscribe) else { return false }
        let words = words(for: digest)
        return mailer.queue(
            to: digest.email, subject: subject(digest, words), text: text(digest, words, unsubscribe: unsubscribe),
            html: html(digest, words, unsubscribe: unsubscribe), what: "reply digest", headers: headers)
    }

    /// RFC 8058: the link in angle brackets, and the header that says one POST unsubscribes.
    static func unsubscribeHeaders(_ link: String) throws(MailError) -> [MailHeader] {
        [
            try MailHeader("List-Unsubscribe", "<\(link)>"),
            try MailHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
        ]
    }

    /// The reader's chosen language, else the site's.
    func words(for digest: ReplyDigest) -> ReplyMailWords {
        ReplyMailWords(messages: catalogs[digest.language.flatMap { InterfaceLanguage(tag: $0) } ?? catalogs.site])
    }

    func subject(_ digest: ReplyDigest, _ words: ReplyMailWords) -> String {
        words.subject(
            count: digest.replies.count, articleTitle: Self.oneLine(digest.replies.first?.articleTitle ?? ""),
            otherArticles: Set(digest.replies.map(\.articleSlug)).count - 1)
    }

    /// The replies shown, grouped by article in the digest's order.
    private func groups(_ digest: ReplyDigest) -> [(title: String, replies: [ReplyDigest.Reply])] {
        var groups: [(title: String, replies: [ReplyDigest.Reply])] = []
        for reply in digest.replies.prefix(Self.shownReplies) {
            if groups.last?.replies.first?.articleSlug == reply.articleSlug {
                groups[groups.count - 1].replies.append(reply)
            } else {
                groups.append((reply.articleTitle, [reply]))
            }
        }
        return groups
    }

    private func link(_ reply: ReplyDigest.Reply) -> String {
        let slug = reply.articleSlug.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? reply.articleSlug
        return site.baseURL + ArticlePaths.article(slug) + "#comment-\(reply.commentID)"
    }

    private var repliesPage: String { site.baseURL + "/me/replies" }
    private var accountPage: String { site.baseURL + "/account#reply-mail" }

    func text(_ digest: ReplyDigest, _ words: ReplyMailWords, unsubscribe: String) -> String {
        var lines = [
            words.greeting(digest.username), "", words.summary(count: digest.replies.count, siteName: siteName),
        ]
        for group in groups(digest) {
            lines += ["", words.onArticle(Self.oneLine(group.title))]
            for reply in group.replies {
                lines += ["", words.replyBy(reply.author), Self.excerpt(reply.body), link(reply)]
            }
        }
        let hidden = digest.replies.count - Self.shownReplies
        if hidden > 0 { lines += ["", words.more(hidden), repliesPage] }
        lines += [
            "", "-- ", words.why, words.unsubscribeText, unsubscribe, words.settingsText, accountPage,
        ]
        return lines.joined(separator: "\n")
    }

    func html(_ digest: ReplyDigest, _ words: ReplyMailWords, unsubscribe: String) -> String {
        var out = "<p>\(escapeHTML(words.greeting(digest.username)))</p>\n"
        out += "<p>\(escapeHTML(words.summary(count: digest.replies.count, siteName: siteName)))</p>\n"
        for group in groups(digest) {
            out += "<h2>\(escapeHTML(words.onArticle(Self.oneLine(group.title))))</h2>\n"
            for reply in group.replies {
                out += "<p><strong>\(escapeHTML(words.replyBy(reply.author)))</strong></p>\n"
                out += "<blockquote>\(escapeHTML(Self.excerpt(reply.body)))</blockquote>\n"
                out += "<p><a href=\"\(escapeHTML(link(reply)))\">\(escapeHTML(words.readIt))</a></p>\n"
            }
        }
        let hidden = digest.replies.count - Self.shownReplies
        if hidden > 0 {
            out += "<p>\(escapeHTML(words.more(hidden))) "
            out += "<a href=\"\(escapeHTML(repliesPage))\">\(escapeHTML(words.allReplies))</a></p>\n"
        }
        out += "<hr>\n<p>\(escapeHTML(words.why)) "
        out += "<a href=\"\(escapeHTML(unsubscribe))\">\(escapeHTML(words.unsubscribeButton))</a> · "
        out += "<a href=\"\(escapeHTML(accountPage))\">\(escapeHTML(words.settingsLink))</a></p>\n"
        return out
    }

    /// A comment as one plain paragraph: its lines joined, cut at `excerptLength` characters.
    static func excerpt(_ body: String) -> String {
        let flat = oneLine(body)
        guard flat.count > excerptLength else { return flat }
        return String(flat.prefix(excerptLength)).trimmingCharacters(in: .whitespaces) + "…"
    }

    /// Whitespace runs (line breaks included) as one space, control characters as spaces: a title
    /// or a reply on one line (a subject with a control character could never be sent).
    static func oneLine(_ text: String) -> String {
        let space: Unicode.Scalar = " "
        let printable = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? space : $0 }))
        return printable.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }
}
