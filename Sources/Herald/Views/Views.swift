import HTTP
import Mustache

/// Renders pages: a template from `Templates/` inside the shared layout, with the
/// layout's data (site name, the reader, the flash) added to the page's own model.
///
/// Templates receive plain view models (`MustacheValue`), never rows or requests.
public struct Views: Sendable {
    public static let siteName = "Herald"

    private let library: TemplateLibrary
    /// The sections every page's header lists; none without it.
    private let menu: SectionMenu?

    /// Loads and compiles every template; a broken one throws with its file, line and column.
    init(directory: String, reloadOnChange: Bool, menu: SectionMenu? = nil) throws {
        library = try TemplateLibrary(directory: directory, reloadOnChange: reloadOnChange)
        self.menu = menu
    }

    /// A full HTML page.
    public func page(
        _ template: String, title: String, model: [String: MustacheValue] = [:], context: RequestContext,
        status: HTTPStatus = .ok
    ) throws -> Response {
        var values = model
        values["site_name"] = .string(Self.siteName)
        values["page_title"] = .string(title)
        values["reader_name"] = context.readerName.map(MustacheValue.string) ?? .null
        values["flash"] = context.flash.map(MustacheValue.string) ?? .null
        values["csrf_token"] = .string(context.csrfToken)
        let sections = menu?.sections ?? []
        values["has_sections"] = .bool(!sections.isEmpty)
        values["sections"] = .list(
            sections.map { ["name": .string($0.name), "url": .string(SectionPaths.section($0.slug))] })
        // A page rendered for the cache carries the marker, filled in for each reader as it is served.
        let target = context.requestTarget
        values["here"] = .string(target == PageCache.hereMarker ? target : Self.here(target))
        values["unread_badge"] = .string(
            context.readerName == PageCache.nameMarker ? PageCache.unreadMarker : Self.unreadBadge(for: context.user))
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        try library.render(template, .dictionary(MustacheDictionary(values)), into: &body)
        return .html(body, status: status)
    }

    /// `?next=…` for the header's Log in and Register links: the page being shown, when a reader
    /// may be sent back to it (not from the login pages themselves, and not needed for the front
    /// page, where a login lands anyway).
    static func here(_ target: String) -> String {
        guard target != "/", let path = NextPath.validated(target) else { return "" }
        return "?next=" + PercentEncoding.encode(path)
    }

    /// The header's count of unread replies, as HTML (only digits vary); empty when there are none.
    static func unreadBadge(for reader: User?) -> String {
        guard let count = reader?.unreadReplies, count > 0 else { return "" }
        return "<a class=\"unread\" href=\"/me/replies\" data-unread-count=\"\(count)\">"
            + "\(count) new repl\(count == 1 ? "y" : "ies")</a>"
    }

    /// Any non-HTML document rendered from a template (the Atom feed).
    public func document(_ template: String, model: [String: MustacheValue], contentType: String) throws -> Response {
        var body: [UInt8] = []
        try library.render(template, .dictionary(MustacheDictionary(model)), into: &body)
        return Response(status: .ok, headers: HTTPHeaders([("Content-Type", contentType)]), body: body)
    }

    /// A page that says why something was not done and shows what the reader typed, to copy (a
    /// save or a comment that was not performed): label, field name and text of each field.
    public func returnedText(
        _ message: String, status: HTTPStatus, title: String, texts: [(label: String, name: String, text: String)],
        context: RequestContext
    ) -> Response {
        let model: [String: MustacheValue] = [
            "message": .string(message),
            "texts": .list(
                texts.filter { !$0.text.isEmpty }.map { field in
                    [
                        "label": .string(field.label), "name": .string(field.name), "text": .string(field.text),
                        "rows": .int(min(24, max(2, field.text.count / 60 + 1))),
                    ]
                }),
        ]
        return (try? page("returned-text", title: title, model: model, context: context, status: status))
            ?? errorPage(HTTPError(status, message), context: context)
    }

    /// The error page for `error`. Never throws: if the template itself fails, a plain page is sent.
    public func errorPage(_ error: HTTPError, context: RequestContext) -> Response {
        let model: [String: MustacheValue] = [
            "status": .int(error.status.code), "reason": .string(error.status.reason),
            "message": .string(error.message),
        ]
        if let page = try? page(
            "error", title: error.status.reason, model: model, context: context, status: error.status)
        {
            return page
        }
        return .text("\(error.status.code) \(error.status.reason)\n\n\(error.message)\n", status: error.status)
    }
}
