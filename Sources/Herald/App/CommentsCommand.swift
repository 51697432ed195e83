/// `herald comments hide ID | restore ID`: a moderator's work from the command line, recorded
/// as done by `cli`. An unknown id: a message on stderr, exit 1, nothing changed.
enum CommentsCommand {
    static func run(_ words: [String], configuration: Configuration) -> Int32 {
        let database: Database
        do {
            database = try Database(backend: configuration.databaseBackend)
        } catch {
            HeraldMain.printError("herald comments: cannot open the database: \(error)")
            return 1
        }
        defer { database.close() }
        let moderation = Moderation.commandLine(database, configuration)
        guard words.count == 2, words[0] == "hide" || words[0] == "restore" else {
            HeraldMain.printError("herald comments: usage: herald comments hide ID | restore ID")
            return 1
        }
        guard let id = Int(words[1]), id > 0 else {
            HeraldMain.printError("herald comments: “\(words[1].prefix(40))” is not a comment id (a whole number)")
            return 1
        }
        let hiding = words[0] == "hide"
        do {
            switch try moderation.setHidden(commentID: id, hidden: hiding, note: "", by: .commandLine) {
            case .changed:
                print("comment \(id): \(hiding ? "hidden" : "restored")")
            case .unchanged:
                print("comment \(id): \(hiding ? "already hidden" : "not hidden")")
            case .noSuchComment:
                HeraldMain.printError("herald comments: there is no comment \(id)")
                return 1
            case .noteTooLong, .notAllowed:
                // The command line gives no note and always may moderate.
                return 1
            }
            return 0
        } catch {
            HeraldMain.printError("herald comments: \(error)")
            return 1
        }
    }
}

extension Moderation {
    /// Moderation as the command line does it, on `database`.
    static func commandLine(_ database: Database, _ configuration: Configuration) -> Moderation {
        Moderation(
            store: ModerationStore(database: database), comments: CommentStore(database: database),
            accounts: AccountStore(database: database), articles: ArticleStore(database: database),
            clock: configuration.clock)
    }
}
