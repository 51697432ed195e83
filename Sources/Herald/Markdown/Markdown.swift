internal import CCmark
import Mustache
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Articles' Markdown to HTML: CommonMark with GitHub's tables, strikethrough and autolinks,
/// through libcmark-gfm. The result is safe to put in a page unescaped:
///
/// - Raw HTML is **escaped**, never passed through: an inline tag or an HTML block becomes text,
///   so `<script>` shows as the characters `<script>`. Nothing an editor typed is silently lost,
///   and the preview shows them what to write in Markdown instead.
/// - Link and image targets must pass `MarkdownURLPolicy`; a refused link or image is replaced by
///   its text (an image by its alt text).
/// - The body's highest heading becomes `<h2>` and the others keep their order below it, one
///   level per level used (`##`, `####` → `<h2>`, `<h3>`): the article's title stays the page's
///   only `<h1>`, a body that starts at `##` does not skip from `<h1>` to `<h3>`, and no level is
///   skipped that the author did not write between (SPEC "Pages, in small ways").
///
/// cmark is meant to take time linear in the input, but this version (0.29.0.gfm.6) is not for
/// wide tables and many image openers: `MarkdownBudget` bounds both before parsing. Over budget,
/// tables are left as text, or (brackets) the whole text is shown unrendered in a `<pre>`.
enum Markdown {
    static func html(_ text: String) -> String {
        let budget = MarkdownBudget(text)
        guard budget.bracketsFit else { return unrendered(text) }
        return parsing.withLock { _ in render(text, tables: budget.tablesFit) } ?? unrendered(text)
    }

    /// One parse at a time in the process: cmark-gfm marks the characters its inline extensions
    /// react to (`~` for strikethrough, `:` and `w` for autolinks) in a global table, set as each
    /// parse of inlines starts and cleared as it ends, so a parse finishing on one thread would
    /// switch those extensions off for a parse still running on another.
    static let parsing = Mutex(())

    static let options = CMARK_OPT_DEFAULT  // without CMARK_OPT_UNSAFE: cmark's own safe mode stays on too

    private static func render(_ text: String, tables: Bool) -> String? {
        parsed(text, tables: tables) { document, parser in
            makeSafe(document)
            guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser))
            else { return nil }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }

    /// `use`'s answer for the parsed document (and its parser, for the extensions); both are
    /// freed after. Called while holding `parsing`.
    static func parsed<Value>(
        _ text: String, tables: Bool, _ use: (OpaquePointer, OpaquePointer) -> Value?
    ) -> Value? {
        registerExtensions
        guard let parser = cmark_parser_new(options) else { return nil }
        defer { cmark_parser_free(parser) }
        for name in tables ? ["table", "strikethrough", "autolink"] : ["strikethrough", "autolink"] {
            if let syntax = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntax)
            }
        }
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        guard let document = cmark_parser_finish(parser) else { return nil }
        defer { cmark_node_free(document) }
        return use(document, parser)
    }

    /// A text cmark cannot be trusted to parse quickly, or failed to: shown as it was written.
    private static func unrendered(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\0" ? "\u{FFFD}" : scalar) }
        return "<pre>" + escapeHTML(String(scalars)) + "</pre>\n"
    }

    /// cmark-gfm's registry of extensions is global; filled once, then only read.
    private static let registerExtensions: Void = cmark_gfm_core_extensions_ensure_registered()

    /// Collects headings, links and raw HTML while walking the tree, then renumbers the headings
    /// and rewrites what must not be rendered as parsed. The tree changes only after the walk, as
    /// cmark's iterator requires.
    private static func makeSafe(_ document: OpaquePointer) {
        var headings: [OpaquePointer] = []
        var links: [OpaquePointer] = []
        var rawHTML: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_HEADING {
                headings.append(node)
            } else if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                links.append(node)
            } else if type == CMARK_NODE_HTML_INLINE || type == CMARK_NODE_HTML_BLOCK {
                rawHTML.append(node)
            }
        }
        cmark_iter_free(iterator)
        renumber(headings)
        // In document order, so a link is unwrapped before an image inside it is looked at; both
        // stay valid, since only the emptied link itself is freed.
        for node in links {
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            if !MarkdownURLPolicy.allows(url) { unwrap(node) }
        }
        for node in rawHTML { escape(node) }
    }

    /// The levels used, highest first, become `<h2>`, `<h3>`… (capped at `<h6>`).
    private static func renumber(_ headings: [OpaquePointer]) {
        let used = Set(headings.map { cmark_node_get_heading_level($0) }).sorted()
        for node in headings {
            let rank = used.firstIndex(of: cmark_node_get_heading_level(node)) ?? 0
            cmark_node_set_heading_level(node, Int32(min(2 + rank, 6)))
        }
    }

    /// Replaces a link or an image by its children: the link's text, the image's alt text. Should
    /// cmark refuse to move a child (it never has), the node stays with an empty target instead:
    /// freeing it would free a child that may still be waiting in `makeSafe`'s lists.
    private static func unwrap(_ node: OpaquePointer) {
        while let child = cmark_node_first_child(node) {
            guard cmark_node_insert_before(node, child) == 1 else {
                cmark_node_set_url(node, "")
                return
            }
        }
        cmark_node_unlink(node)
        cmark_node_free(node)
    }

    /// Replaces raw HTML by the same characters as text: inline HTML by a text node, an HTML block
    /// by a paragraph holding one. Should cmark refuse the new node there, the HTML is dropped.
    private static func escape(_ node: OpaquePointer) {
        var literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
        let isBlock = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK
        if isBlock {
            while literal.last?.isNewline == true { literal.removeLast() }
        }
        if let text = cmark_node_new(CMARK_NODE_TEXT) {
            cmark_node_set_literal(text, literal)
            var replacement = text
            if isBlock, let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH) {
                cmark_node_append_child(paragraph, text)
                replacement = paragraph
            }
            if cmark_node_insert_before(node, replacement) != 1 { cmark_node_free(replacement) }
        }
        cmark_node_unlink(node)
        cmark_node_free(node)
    }
}
