/// Uploaded images, by their content-addressed name (`{sha256}.{ext}`). Knows nothing of HTTP.
struct MediaLibrary: Sendable {
    let store: MediaStore

    /// The image called `name`, or nil (unknown, or a name that is not an image's).
    func image(named name: String) throws -> MediaFile? {
        guard MediaPaths.hash(ofName: name) != nil else { return nil }
        return try store.file(named: name)
    }
}
