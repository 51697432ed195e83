/// Uploaded images, by their content-addressed name (`{sha256}.{ext}`). Knows nothing of HTTP.
struct MediaLibrary: Sendable {
    let store: MediaStore
    var clock = Clock.system

    /// The image called `name`, or nil (unknown, or a name that is not an image's).
    func image(named name: String) throws -> MediaFile? {
        guard MediaPaths.hash(ofName: name) != nil else { return nil }
        return try store.file(named: name)
    }

    enum BodyImageOutcome: Sendable, Equatable {
        /// Stored (or there already: the name is the content); its address on this site.
        case stored(path: String)
        /// Not an image this site takes (type, size, dimensions), in a sentence for the editor.
        case refused(String)
        case notAllowed(String)
    }

    /// An image for an article's text, uploaded by `editor`: checked like the lead image (JPEG,
    /// PNG or WebP by content, at most 5 MB, sane dimensions) and stored at once, so the text can
    /// point at it before the article is saved.
    func storeBodyImage(_ bytes: [UInt8], by editor: User) throws -> BodyImageOutcome {
        guard Newsroom.mayWrite(editor) else { return .notAllowed(Newsroom.editorsOnly) }
        let info: ImageInfo
        do {
            info = try ImageInfo.recognise(bytes)
        } catch {
            return .refused(error.description)
        }
        let name = Sodium.hex(Sodium.sha256(bytes)) + "." + info.fileExtension
        try store.add(
            MediaFile(name: name, contentType: info.contentType, width: info.width, height: info.height, bytes: bytes),
            now: clock.now())
        return .stored(path: MediaPaths.media(name))
    }
}
