/// HTML-escapes `text` exactly as `{{x}}` would, for callers that build HTML fragments
/// outside a template (an Atom feed's `type="html"` content).
public func escapeHTML(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 16)
    HTMLEscaping.append(escaping: text, to: &out)
    return String(decoding: out, as: UTF8.self)
}
