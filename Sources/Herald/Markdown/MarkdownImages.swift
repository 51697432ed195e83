internal import CCmark

extension Markdown {
    /// The targets of the images in `text` that another site would serve (`https://…`, `//…`).
    /// The pages' Content-Security-Policy loads images from this site only (`img-src 'self'
    /// data:`), so readers would see each of them broken: the newsroom refuses them at save
    /// (`Newsroom`), naming the first. Text cmark is not trusted to parse is shown unrendered, with
    /// no images at all.
    static func externalImages(_ text: String) -> [String] {
        let budget = MarkdownBudget(text)
        guard budget.bracketsFit else { return [] }
        let targets =
            parsing.withLock { _ in
                parsed(text, tables: budget.tablesFit) { document, _ in imageTargets(in: document) }
            } ?? []
        return targets.filter(isElsewhere)
    }

    private static func imageTargets(in document: OpaquePointer) -> [String] {
        var targets: [String] = []
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_IMAGE
            else { continue }
            targets.append(cmark_node_get_url(node).map { String(cString: $0) } ?? "")
        }
        return targets
    }

    /// A scheme other than `data:` (which `MarkdownURLPolicy` refuses anyway), or `//host`.
    static func isElsewhere(_ target: String) -> Bool {
        let lowered = target.lowercased()
        if lowered.hasPrefix("//") { return true }
        guard let colon = lowered.firstIndex(of: ":") else { return false }
        let scheme = lowered[..<colon]
        guard !scheme.isEmpty, !scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return false }
        return scheme != "data"
    }
}
