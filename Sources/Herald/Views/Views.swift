import HTTP
import Mustache

/// Renders pages: a template from `Templates/` inside the shared layout, with the
/// layout's data (site name, the reader, the flash) added to the page's own model.
///
/// Templates receive plain view models (`MustacheValue`), never rows or requests.
public struct Views: Sendable {
    private let library: TemplateLibrary
    /// The sections every page's header lists; none without it.
    private let menu: SectionMenu?
    public let site: SiteIdentity
    /// `HERALD_BASE_URL`: canonical links and Open Graph URLs are absolute, so they are given only
    /// with it (never built from a request's Host).
    let baseURL: String?

    /// The interface's words in each language, checked against the templates at start-up.
    public let catalogs: MessageCatalogs

    /// Loads and compiles every template; a broken one throws with its file, line and column.
    init(
        directory: String, reloadOnChange: Bool, menu: SectionMenu? = nil, site: SiteIdentity = SiteIdentity(),
        baseURL: String? = nil
    ) throws {
        library = try TemplateLibrary(directory: directory, reloadOnChange: reloadOnChange)
        try PageTemplate.checkAll(in: library)
        catalogs = try MessageCatalogs(templatesDirectory: directory, siteLanguage: site.language)
        self.menu = menu
        self.site = site
        self.baseURL = baseURL
    }

    /// What a page says about itself to search engines and to sites its link is shared on.
    struct PageMeta {
        var description: String?
        /// This page's own path (without the query that does not change what it is).
        var canonicalPath: String?
        /// Open Graph properties, in order; URLs in them are paths, made absolute here.
        var openGraph: [(property: String, content: String)] = []
    }

    /// A full HTML page: `model`'s own values in front of the layout's.
    func page(
        _ model: some PageModel, title: String, context: RequestContext, status: HTTPStatus = .ok,
        meta: PageMeta = PageMeta()
    ) throws -> Response {
        let layout = layoutValues(title: title, context: context, meta: meta)
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        try Messages.$rendering.withValue(context.messages) {
            try library.render(model.template.rawValue, .object(LayeredObject(front: model, back: layout)), into: &body)
        }
        return .html(body, status: status)
    }

    /// What the layout shows on every page: the site, the page's meta, the reader, the flash, the
    /// form token, the sections.
    private func layoutValues(title: String, context: RequestContext, meta: PageMeta) -> [String: MustacheValue] {
        var values: [String: MustacheValue] = [:]
        values.reserveCapacity(20)
        values["site_name"] = .string(site.name)
        values["site_description"] = .string(site.description)
        values["language"] = .string(context.language.rawValue)
        values["t"] = context.messages.templateValue
        values["site_language"] = .string(site.language)
        values["interface_languages"] = Self.languageChoices
        values["meta_description"] = .string(meta.description ?? site.description)
        // Absolute URLs only from the configured base URL (never from a request's Host): without
        // it, no canonical link, og:url or og:image.
        // Percent-encoded, as crawlers compare them (a slug may be `渡輪班次延長至午夜`).
        values["canonical_url"] =
            baseURL.flatMap { base in meta.canonicalPath.map { .string(PercentEncoding.uri(fromIRI: base + $0)) } }
            ?? .null
        values["open_graph"] = .list(
            meta.openGraph.compactMap { property, content in
                let isURL = property == "og:url" || property == "og:image"
                if isURL && baseURL == nil { return nil }
                let value = isURL ? PercentEncoding.uri(fromIRI: (baseURL ?? "") + content) : content
                return ["property": .string(property), "content": .string(value)]
            })
        // Titles and flashes raised in English are shown in the reader's language (a title that is
        // an article's own stays as it is).
        values["page_title"] = .string(context.messages.translated(title))
        values["reader_name"] = context.readerName.map(MustacheValue.string) ?? .null
        values["flash"] = context.flash.map { .string(context.messages.translated($0)) } ?? .null
        values["csrf_token"] = .string(context.csrfToken)
        let sections = menu?.sections ?? []
        values["has_sections"] = .bool(!sections.isEmpty)
        values["sections"] = .list(
            sections.map { ["name": .string($0.name), "url": .string(SectionPaths.section($0.slug))] })
        // A page rendered for the cache carries the marker, filled in for each reader as it is served.
        let target = context.requestTarget
        values["here"] = .string(target == PageCache.hereMarker ? target : Self.here(target))
        // A page rendered for the cache carries markers for the reader's name and unread count too.
        let forCache = context.readerName == PageCache.nameMarker
        values["unread_badge"] = .string(
            forCache ? PageCache.unreadMarker : Self.unreadBadge(for: context.user, language: context.language))
        values["signed_in_name"] = .string(
            forCache ? PageCache.nameMarker : context.readerName.map { Self.signedInName($0) } ?? "")
        let links = HeaderLinks(for: context.user)
        values["newsroom_link"] = .bool(links.newsroom)
        values["moderation_link"] = .bool(links.moderation)
        return values
    }

    /// The footer's switcher: one button per language, named in that language.
    private static let languageChoices = MustacheValue.list(
        InterfaceLanguage.allCases.map { ["code": .string($0.rawValue), "name": .string($0.ownName)] })

    /// `?next=…` for the header's Log in and Register links: the page being shown, when a reader
    /// may be sent back to it (not from the login pages themselves, and not needed for the front
    /// page, where a login lands anyway).
    static func here(_ target: String) -> String {
        guard target != "/", let path = NextPath.validated(target) else { return "" }
        return "?next=" + PercentEncoding.encode(path)
    }

    /// The header's "Signed in as" name, as HTML.
    static func signedInName(_ username: String) -> String {
        "<strong>" + escapeHTML(username) + "</strong>"
    }

    /// The header's count of unread replies, as HTML (only digits vary); empty when there are none.
    /// A number alone on the page (the words are for screen readers), put both on the phone's Menu
    /// button and beside the Replies link, so it never wraps into lines of its own.
    static func unreadBadge(for reader: User?, language: InterfaceLanguage) -> String {
        unreadBadge(count: reader?.unreadReplies ?? 0, language: language)
    }

    /// Its words are fixed here rather than in the catalogs: the page cache keeps a hole exactly as
    /// wide as the widest badge (`PageSlot.unreadWidth`), so each language's must fit in it.
    static func unreadBadge(count: Int, language: InterfaceLanguage = .english) -> String {
        guard count > 0 else { return "" }
        let words =
            switch language {
            case .english: " new repl\(count == 1 ? "y" : "ies")"
            case .traditionalChinese: " 則新回覆"
            }
        return "<span class=\"unread\" data-unread-count=\"\(count)\">\(count)"
            + "<span class=\"visually-hidden\">\(words)</span></span>"
    }

    /// A piece of a page (one comment, for the page's script), rendered with `value` first and
    /// `shared` (the form token, form actions) behind it, as the page would have them.
    func fragment(
        _ template: PageTemplate, _ value: any MustacheObject, shared: [String: MustacheValue], context: RequestContext
    ) throws -> String {
        var body: [UInt8] = []
        var shared = shared
        shared["t"] = context.messages.templateValue
        try Messages.$rendering.withValue(context.messages) {
            try library.render(template.rawValue, .object(LayeredObject(front: value, back: shared)), into: &body)
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// Any non-HTML document rendered from a template (the Atom feed).
    func document(_ model: some PageModel, contentType: String) throws -> Response {
        var body: [UInt8] = []
        try library.render(model.template.rawValue, .object(model), into: &body)
        return Response(status: .ok, headers: HTTPHeaders([("Content-Type", contentType)]), body: body)
    }

    /// A page that says why something was not done and shows what the reader typed, to copy (a
    /// save or a comment that was not performed): label, field name and text of each field.
    public func returnedText(
        _ message: String, status: HTTPStatus, title: String, texts: [(label: String, name: String, text: String)],
        context: RequestContext
    ) -> Response {
        return
            (try? page(
                ReturnedTextPage(message: context.messages.translated(message), texts: texts),
                title: context.messages.translated(title), context: context, status: status))
            ?? errorPage(HTTPError(status, message), context: context)
    }

    /// The error page for `error` (with `latest` articles offered on a 404). Never throws: if the
    /// template itself fails, a plain page is sent.
    public func errorPage(_ error: HTTPError, context: RequestContext, latest: [Article] = []) -> Response {
        // Raised in English by code that knows no language; shown in the reader's when the
        // catalog has the message (its `en` text), as it is otherwise.
        var error = error
        error.message = context.messages.translated(error.message)
        let model = ErrorPage(error: error, latest: latest, messages: context.messages)
        if let page = try? page(
            model, title: model.heading, context: context, status: error.status,
            meta: PageMeta(description: error.message))
        {
            return page
        }
        return .text("\(error.status.code) \(error.status.reason)\n\n\(error.message)\n", status: error.status)
    }
}

/// Values from `front`, else from `back`: a fragment sees what its page would give it.
private struct LayeredObject: MustacheObject {
    let front: any MustacheObject
    let back: [String: MustacheValue]

    func value(forKey key: String) -> MustacheValue? {
        front.value(forKey: key) ?? back[key]
    }
}
