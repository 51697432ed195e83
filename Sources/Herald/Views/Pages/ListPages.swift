import HTTP
import Mustache

/// `front.mustache`: the front page, or a section's page — the same list under its own heading.
struct FrontPage: PageModel {
    let template = PageTemplate.front
    let articles: [Article]
    let page: Int
    let pager: Pager
    let section: Section?

    init(articles: [Article], page: Int, hasOlder: Bool, section: Section?) {
        self.articles = articles
        self.page = page
        self.section = section
        pager = Pager(base: section.map { SectionPaths.section($0.slug) } ?? "/", page: page, hasOlder: hasOlder)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "articles": .list(articles.map { .object(ArticleSummaryView(article: $0)) })
        case "has_articles": .bool(!articles.isEmpty)
        case "page": .int(page)
        case "empty_text":
            .string(Messages.rendering[section == nil ? "front_empty" : "section_empty"])
        case "section_feed":
            section.map { ["name": .string($0.name), "url": .string(SectionPaths.feed($0.slug))] } ?? .null
        default: pager.value(forKey: key)
        }
    }
}

/// `likes.mustache`: the reader's liked articles.
struct LikesPage: PageModel {
    let template = PageTemplate.likes
    let articles: [Article]

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "articles": .list(articles.map { .object(ArticleSummaryView(article: $0)) })
        case "has_articles": .bool(!articles.isEmpty)
        default: nil
        }
    }
}

/// `search.mustache`: the form, and for a query its results with their snippets.
struct SearchPage: PageModel {
    let template = PageTemplate.search
    let query: String
    /// Nil: no query yet (the form alone).
    let results: [Search.Result]?
    let pager: Pager?
    /// How many articles hold every word, or at least how many (`orMore`).
    let matches: Int
    let orMore: Bool

    init(
        query: String, results: [Search.Result]?, page: Int = 1, hasMore: Bool = false, matches: Int = 0,
        orMore: Bool = false
    ) {
        self.query = query
        self.results = results
        self.matches = matches
        self.orMore = orMore
        pager =
            results == nil
            ? nil : Pager(base: "/search?q=" + PercentEncoding.encode(query), page: page, hasOlder: hasMore)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "query": return .string(query)
        case "has_query": return .bool(results != nil)
        case "has_results": return .bool(results?.isEmpty == false)
        case "result_count": return .int(matches)
        case "result_count_text": return .string(Self.countText(matches, orMore: orMore))
        case "results": return .list((results ?? []).map { .object(SearchResultView(result: $0)) })
        default: return pager?.value(forKey: key)
        }
    }
}

extension SearchPage {
    /// "1 result", "12 results", "1,000 or more results" (a search counts so far and no further).
    static func countText(_ matches: Int, orMore: Bool) -> String {
        var number = String(matches)
        for position in stride(from: number.count - 3, to: 0, by: -3) {
            number.insert(",", at: number.index(number.startIndex, offsetBy: position))
        }
        let messages = Messages.rendering
        if orMore { return messages.format("search_count_or_more", ["count": number]) }
        return matches == 1 ? messages["search_count_one"] : messages.format("search_count", ["count": number])
    }
}

/// One search result: the article's summary values and its snippet.
struct SearchResultView: MustacheObject {
    let result: Search.Result

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "snippet_html": .string(result.snippetHTML)
        case "title", "url", "section", "section_url", "date_iso", "date_text", "author":
            ArticleSummaryView(article: result.article).value(forKey: key) ?? .null
        default: nil
        }
    }
}

/// `profile.mustache`: a reader's public page.
struct ProfilePage: PageModel {
    let template = PageTemplate.profile
    let username: String
    let joined: Int
    let comments: [ProfileStore.ProfileComment]
    let pager: Pager

    init(username: String, joined: Int, comments: [ProfileStore.ProfileComment], page: Int, hasOlder: Bool) {
        self.username = username
        self.joined = joined
        self.comments = comments
        pager = Pager(base: "/users/" + PercentEncoding.encode(username), page: page, hasOlder: hasOlder)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "username": .string(username)
        case "joined": .string(DateText.long(joined))
        case "joined_iso": .string(DateText.rfc3339(joined))
        case "comments": .list(comments.map { .object(ProfileCommentView(comment: $0)) })
        case "has_comments": .bool(!comments.isEmpty)
        default: pager.value(forKey: key)
        }
    }
}

/// `replies.mustache`: replies to the reader's comments.
struct RepliesPage: PageModel {
    let template = PageTemplate.replies
    let replies: [Comments.ReplyToReader]
    let pager: Pager

    init(replies: [Comments.ReplyToReader], page: Int, hasMore: Bool) {
        self.replies = replies
        pager = Pager(base: "/me/replies", page: page, hasOlder: hasMore)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "replies": .list(replies.map { .object(ReplyView(located: $0)) })
        case "has_replies": .bool(!replies.isEmpty)
        default: pager.value(forKey: key)
        }
    }
}

/// A comment on a profile: each value made when the template reads it (no dictionary per comment).
struct ProfileCommentView: MustacheObject {
    let comment: ProfileStore.ProfileComment

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "url": .string(ArticlePaths.article(comment.articleSlug) + "#comment-\(comment.id)")
        case "article_title": .string(comment.articleTitle)
        case "date_iso": .string(DateText.rfc3339(comment.createdAt))
        case "date_text": .string(DateText.long(comment.createdAt))
        case "paragraphs": .list(Paragraphs.split(comment.body).map(MustacheValue.string))
        default: nil
        }
    }
}

/// A reply on `/me/replies`: each value made when the template reads it (no dictionary per reply).
struct ReplyView: MustacheObject {
    let located: Comments.ReplyToReader

    func value(forKey key: String) -> MustacheValue? {
        let comment = located.reply.comment
        switch key {
        case "url": return .string(located.path)
        case "author": return .string(comment.author)
        case "article_title": return .string(located.reply.articleTitle)
        case "is_unread": return .bool(located.reply.isUnread)
        case "date_iso": return .string(DateText.rfc3339(comment.createdAt))
        case "date_text": return .string(DateText.long(comment.createdAt))
        case "paragraphs": return .list(Paragraphs.split(comment.body).map(MustacheValue.string))
        default: return nil
        }
    }
}
