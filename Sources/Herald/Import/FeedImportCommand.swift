import Foundation

/// `herald import FILE…`: each file in one transaction; a broken file is reported
/// with its name and reason and leaves nothing behind; the exit status says if any failed.
enum FeedImportCommand {
    static let maximumFileBytes = 32 << 20

    static func run(files: [String], configuration: Configuration) -> Int32 {
        let database: Database
        do {
            try FileManager.default.createDirectory(
                atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            database = try Database(backend: configuration.databaseBackend)
        } catch {
            HeraldMain.printError("herald import: cannot open the database in \(configuration.dataDirectory): \(error)")
            return 1
        }
        let store = ArticleStore(database: database)
        var failures = 0
        for file in files {
            do {
                let data = try read(file)
                let entries = try FeedParser.parse(data, name: file == "-" ? "stdin" : file)
                let outcomes = try store.importArticles(entries, now: configuration.clock.now())
                let added = outcomes.filter { $0 == .added }.count
                let updated = outcomes.filter { $0 == .updated }.count
                let skipped = outcomes.filter { $0 == .unchanged }.count
                print("\(file == "-" ? "stdin" : file): \(added) added, \(updated) updated, \(skipped) skipped")
            } catch {
                failures += 1
                HeraldMain.printError("herald import: \(error)")
            }
        }
        database.close()
        return failures == 0 ? 0 : 1
    }

    private static func read(_ file: String) throws -> [UInt8] {
        let handle = file == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: file)
        guard let handle else { throw UsageError(description: "\(file): cannot open the file") }
        let data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
        guard data.count <= maximumFileBytes else {
            throw UsageError(description: "\(file): larger than \(maximumFileBytes >> 20) MiB")
        }
        return Array(data)
    }
}
