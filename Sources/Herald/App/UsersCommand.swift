import Foundation

/// `herald users …`: list accounts, grant and revoke roles, ban and unban, print a password-reset
/// link. It
/// works on the same database as `serve` (`--data` or `--database`), and what it changes counts
/// from the account's next request on every server. An unknown user or role: a message on
/// stderr, exit 1, nothing changed.
enum UsersCommand {
    static func run(_ words: [String], configuration: Configuration) -> Int32 {
        let database: Database
        let accounts: Accounts
        let moderation: Moderation
        do {
            database = try Database(backend: configuration.databaseBackend)
            let store = AccountStore(database: database)
            accounts = try Accounts(
                store: store,
                limiter: RateLimiter(store: RateLimitStore(database: database), clock: configuration.clock),
                rules: AccountRules(commonPasswords: []), settings: configuration.accounts, clock: configuration.clock)
            moderation = Moderation.commandLine(database, configuration)
        } catch {
            HeraldMain.printError("herald users: cannot open the database: \(error)")
            return 1
        }
        defer { database.close() }
        do {
            return try perform(words, accounts: accounts, moderation: moderation, configuration: configuration)
        } catch {
            HeraldMain.printError("herald users: \(error)")
            return 1
        }
    }

    private static func perform(
        _ words: [String], accounts: Accounts, moderation: Moderation, configuration: Configuration
    ) throws -> Int32 {
        switch (words.first, words.count) {
        case ("list", 1):
            for account in try accounts.accounts() {
                let roles = account.roles.names.isEmpty ? "reader" : account.roles.names.joined(separator: ",")
                print("\(account.user.username)\t\(roles)\t\(DateText.rfc3339(account.createdAt))")
            }
            return 0
        case ("grant", 3), ("revoke", 3):
            guard let role = Role(rawValue: words[2]) else {
                return fail("unknown role “\(words[2])”: roles are editor, moderator and admin")
            }
            let granting = words[0] == "grant"
            switch try accounts.change(role, of: words[1], granted: granting) {
            case .noSuchUser:
                return fail("no user is called “\(words[1])”")
            case .changed(let user, let roles), .unchanged(let user, let roles):
                let now = roles.names.isEmpty ? "reader" : roles.names.joined(separator: ",")
                print("\(user.username): \(now)")
                return 0
            }
        case ("ban", 2), ("unban", 2):
            let banning = words[0] == "ban"
            switch try moderation.setBanned(words[1], banned: banning, hideComments: false, note: "", by: .commandLine)
            {
            case .noSuchUser:
                return fail("no user is called “\(words[1])”")
            case .banned:
                print("\(words[1]): banned (every session ended)")
            case .unbanned:
                print("\(words[1]): may log in again")
            case .unchanged:
                print("\(words[1]): \(banning ? "already banned" : "not banned")")
            case .cannotBanAdmin, .cannotBanSelf, .noteTooLong, .reasonRequired, .notAllowed:
                return fail("cannot \(words[0]) “\(words[1])”")
            }
            return 0
        case ("reset-link", 2):
            guard let token = try accounts.passwordResetToken(for: words[1]) else {
                return fail("no user is called “\(words[1])”")
            }
            let base = configuration.baseURL ?? "http://\(configuration.host):\(configuration.port)"
            print("\(base)/password/reset/\(token)")
            return 0
        default:
            return fail(
                "usage: herald users list | grant NAME ROLE | revoke NAME ROLE | ban NAME | unban NAME | reset-link NAME (ROLE: editor, moderator, admin)"
            )
        }
    }

    private static func fail(_ message: String) -> Int32 {
        HeraldMain.printError("herald users: \(message)")
        return 1
    }
}
