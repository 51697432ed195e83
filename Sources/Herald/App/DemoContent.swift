import Foundation

/// The bundled demo articles (`Content/demo-articles.json`, a JSON Feed), loaded into a new, empty database.
enum DemoContent {
    static let fileName = "demo-articles.json"

    /// Returns how many articles were added.
    static func load(from contentDirectory: String, into articles: ArticleStore) throws -> Int {
        let path = contentDirectory + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(description: "demo content \(path) is missing (run from the checkout, or pass --no-demo)")
        }
        let entries = try FeedParser.parse(Array(data), name: path)
        return try articles.importArticles(entries).filter { $0 == .added }.count
    }
}
