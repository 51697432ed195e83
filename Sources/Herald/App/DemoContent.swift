import Foundation

/// The bundled demo articles (`Content/demo-articles.json`, a JSON Feed), loaded into a new, empty database.
enum DemoContent {
    static let fileName = "demo-articles.json"

    /// Returns how many articles were added. `now` is the app clock's time, stored as `updated_at`.
    static func load(from contentDirectory: String, into articles: ArticleStore, now: Int) throws -> Int {
        let path = contentDirectory + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(description: "demo content \(path) is missing (run from the checkout, or pass --no-demo)")
        }
        let entries = try FeedParser.parse(Array(data), name: path)
        return try articles.importArticles(entries, now: now).filter { $0 == .added }.count
    }
}
