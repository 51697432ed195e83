import HTTP

/// What the command line asked for.
public enum Command: Sendable, Equatable {
    case serve
    case importFeeds(files: [String])
    /// `herald users list|grant|revoke|reset-link …`, its words as given.
    case users([String])
    /// `herald comments hide|restore ID`, its words as given.
    case comments([String])
    /// `herald backup FILE`: a consistent copy of the SQLite database.
    case backup(file: String)
    /// `herald --version`: the release and the commit it was built from.
    case version
    case help
}

public struct UsageError: Error, CustomStringConvertible {
    public let description: String
}

/// Parses `herald serve …` / `herald import …` plus `HERALD_*` environment variables.
public enum CommandLineArguments {
    public static let usage = """
        usage: herald serve [--host 127.0.0.1] [--port 8080] [--data ./data] [--database postgres://…] [--root .]
                            [--dev] [--no-demo] [--threads N] [--head-deadline SECONDS]
                            [--max-connections-per-address N] [--site-name NAME] [--site-description TEXT]
                            [--language TAG] [--metrics-port PORT]
               herald import [--data ./data] [--database postgres://…] FILE…    (Atom, RSS 2.0 or JSON Feed; '-' = stdin)
               herald users [--data ./data] [--database postgres://…] list | grant NAME ROLE | revoke NAME ROLE
                            | ban NAME | unban NAME | reset-link NAME   (ROLE: editor, moderator, admin)
               herald comments [--data ./data] [--database postgres://…] hide ID | restore ID
               herald backup [--data ./data] FILE        (a consistent copy of the SQLite database, while serving)
               herald --version

        environment: HERALD_HOST, HERALD_PORT, HERALD_DATA, HERALD_DATABASE_URL, HERALD_ROOT, HERALD_THREADS, HERALD_BASE_URL,
                     HERALD_HEAD_DEADLINE_SECONDS, HERALD_MAX_CONNECTIONS_PER_ADDRESS,
                     HERALD_SITE_NAME, HERALD_SITE_DESCRIPTION, HERALD_LANGUAGE, HERALD_METRICS_TOKEN,
                     HERALD_ACCESS_LOG=off, HERALD_LOG_FORMAT=text|json, HERALD_LOG_LEVEL=debug|info|warning|error,
                     HERALD_SECRET, HERALD_PREVIOUS_SECRETS, HERALD_REPLY_MAIL_CHECK_SECONDS,
                     HERALD_SMTP_URL=smtp[s]://[user:password@]host[:port], HERALD_MAIL_FROM (see README)
        """

    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> (
        Command, Configuration
    ) {
        var configuration = Configuration()
        try applyEnvironment(environment, to: &configuration)

        var remaining = arguments[...]
        guard let verb = remaining.popFirst() else { return (.help, configuration) }
        var files: [String] = []
        while let argument = remaining.popFirst() {
            func value() throws(UsageError) -> String {
                guard let next = remaining.popFirst() else {
                    throw UsageError(description: "\(argument) needs a value")
                }
                return next
            }
            switch argument {
            case "--host": configuration.host = try value()
            case "--port": configuration.port = try port(try value())
            case "--data": configuration.dataDirectory = try value()
            case "--database": configuration.databaseURL = try databaseURL(try value())
            case "--site-name": configuration.site.name = try SiteIdentity.checkedName(try value())
            case "--site-description": configuration.site.description = try SiteIdentity.checkedDescription(try value())
            case "--language": configuration.site.language = try SiteIdentity.checkedLanguage(try value())
            case "--root": configuration.rootDirectory = try value()
            case "--metrics-port": configuration.metricsPort = try port(try value())
            case "--threads": configuration.threads = try positive(try value(), name: "--threads")
            case "--head-deadline":
                configuration.headDeadlineSeconds = try headDeadline(try value(), name: "--head-deadline")
            case "--max-connections-per-address":
                configuration.connectionsPerAddress = try perAddress(try value(), name: "--max-connections-per-address")
            case "--dev": configuration.developmentMode = true
            case "--no-demo": configuration.loadDemoContent = false
            case "-h", "--help": return (.help, configuration)
            case "-": files.append(argument)
            default:
                if argument.hasPrefix("-") { throw UsageError(description: "unknown option \(argument)") }
                files.append(argument)
            }
        }
        switch verb {
        case "serve":
            guard files.isEmpty else { throw UsageError(description: "serve takes no file arguments") }
            return (.serve, configuration)
        case "import":
            guard !files.isEmpty else { throw UsageError(description: "import needs at least one FILE (or '-')") }
            return (.importFeeds(files: files), configuration)
        case "users":
            guard !files.isEmpty else {
                throw UsageError(description: "users needs a command: list, grant, revoke, ban, unban, reset-link")
            }
            return (.users(files), configuration)
        case "comments":
            guard !files.isEmpty else { throw UsageError(description: "comments needs a command: hide, restore") }
            return (.comments(files), configuration)
        case "backup":
            guard files.count == 1 else { throw UsageError(description: "backup needs exactly one FILE to write") }
            return (.backup(file: files[0]), configuration)
        case "version", "--version":
            return (.version, configuration)
        case "help", "-h", "--help":
            return (.help, configuration)
        default:
            throw UsageError(description: "unknown command \(verb)")
        }
    }

    private static func applyEnvironment(_ environment: [String: String], to configuration: inout Configuration)
        throws(UsageError)
    {
        if let host = environment["HERALD_HOST"] { configuration.host = host }
        if let value = environment["HERALD_PORT"] { configuration.port = try port(value) }
        if let data = environment["HERALD_DATA"] { configuration.dataDirectory = data }
        if let url = environment["HERALD_DATABASE_URL"], !url.isEmpty {
            configuration.databaseURL = try databaseURL(url)
        }
        if let root = environment["HERALD_ROOT"] { configuration.rootDirectory = root }
        if let value = environment["HERALD_THREADS"] {
            configuration.threads = try positive(value, name: "HERALD_THREADS")
        }
        if let value = environment["HERALD_HEAD_DEADLINE_SECONDS"], !value.isEmpty {
            configuration.headDeadlineSeconds = try headDeadline(value, name: "HERALD_HEAD_DEADLINE_SECONDS")
        }
        if let value = environment["HERALD_MAX_CONNECTIONS_PER_ADDRESS"], !value.isEmpty {
            configuration.connectionsPerAddress = try perAddress(value, name: "HERALD_MAX_CONNECTIONS_PER_ADDRESS")
        }
        if let base = environment["HERALD_BASE_URL"], !base.isEmpty {
            configuration.baseURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        }
        if let name = environment["HERALD_SITE_NAME"], !name.isEmpty {
            configuration.site.name = try SiteIdentity.checkedName(name)
        }
        if let description = environment["HERALD_SITE_DESCRIPTION"], !description.isEmpty {
            configuration.site.description = try SiteIdentity.checkedDescription(description)
        }
        if let language = environment["HERALD_LANGUAGE"], !language.isEmpty {
            configuration.site.language = try SiteIdentity.checkedLanguage(language)
        }
        if let token = environment["HERALD_METRICS_TOKEN"], !token.isEmpty {
            guard token.utf8.count >= 16 else {
                throw UsageError(description: "HERALD_METRICS_TOKEN must be at least 16 characters")
            }
            configuration.metricsToken = token
        }
        if let value = environment["HERALD_METRICS_PORT"], !value.isEmpty {
            configuration.metricsPort = try port(value)
        }
        if environment["HERALD_ACCESS_LOG"] == "off" { configuration.accessLog = false }
        if let format = environment["HERALD_LOG_FORMAT"], !format.isEmpty {
            guard let parsed = Configuration.LogFormat(rawValue: format) else {
                throw UsageError(description: "HERALD_LOG_FORMAT must be text or json, not \(format)")
            }
            configuration.logFormat = parsed
        }
        if let level = environment["HERALD_LOG_LEVEL"], !level.isEmpty {
            let levels: [String: Logger.Level] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
            guard let parsed = levels[level] else {
                throw UsageError(description: "HERALD_LOG_LEVEL must be debug, info, warning or error, not \(level)")
            }
            configuration.logLevel = parsed
        }
        if let secret = environment["HERALD_SECRET"], !secret.isEmpty { configuration.secret = secret }
        configuration.previousSecrets = (environment["HERALD_PREVIOUS_SECRETS"] ?? "").split(separator: ",").map {
            String($0)
        }
        configuration.trustForwardedProto = ["1", "true", "yes"].contains(environment["HERALD_TRUST_PROXY"] ?? "")
        switch environment["HERALD_PASSWORD_COST"] {
        case nil, "", "interactive": break
        case "minimum": configuration.accounts.passwordCost = .minimum
        case let other?:
            throw UsageError(description: "HERALD_PASSWORD_COST must be interactive or minimum, not \(other)")
        }
        try applyLimit(
            environment["HERALD_LOGIN_FAILURES_PER_USERNAME"], to: &configuration.accounts.loginFailuresPerUsername)
        try applyLimit(
            environment["HERALD_LOGIN_FAILURES_PER_ADDRESS"], to: &configuration.accounts.loginFailuresPerAddress)
        try applyLimit(environment["HERALD_LOGIN_WINDOW_SECONDS"], to: &configuration.accounts.loginWindowSeconds)
        try applyLimit(
            environment["HERALD_REGISTRATIONS_PER_ADDRESS"], to: &configuration.accounts.registrationsPerAddress)
        try applyLimit(
            environment["HERALD_REGISTRATION_WINDOW_SECONDS"], to: &configuration.accounts.registrationWindowSeconds)
        try applyLimit(environment["HERALD_RESETS_PER_ADDRESS"], to: &configuration.accounts.resetsPerAddress)
        try applyLimit(environment["HERALD_RESETS_PER_EMAIL"], to: &configuration.accounts.resetsPerEmail)
        try applyLimit(
            environment["HERALD_EMAIL_CHANGES_PER_ACCOUNT"], to: &configuration.accounts.emailChangesPerAccount)
        try applyLimit(environment["HERALD_EMAIL_CHANGES_PER_EMAIL"], to: &configuration.accounts.emailChangesPerEmail)
        try applyLimit(environment["HERALD_HASHING_THREADS"], to: &configuration.accounts.hashingThreads)
        try applyLimit(environment["HERALD_COMMENTS_PER_MINUTE"], to: &configuration.commentsPerMinute)
        try applyLimit(environment["HERALD_REPLY_MAIL_CHECK_SECONDS"], to: &configuration.replyMailCheckSeconds)
        try applyMail(environment, to: &configuration)
    }

    /// HERALD_SMTP_URL and HERALD_MAIL_FROM, checked now so that a typo stops the start-up rather
    /// than the first password reset. Messages never repeat the URL: it may hold a password.
    private static func applyMail(_ environment: [String: String], to configuration: inout Configuration)
        throws(UsageError)
    {
        guard let url = environment["HERALD_SMTP_URL"], !url.isEmpty else { return }
        do {
            _ = try SMTPServer(url: url)
        } catch {
            throw UsageError(description: error.description)
        }
        guard let from = environment["HERALD_MAIL_FROM"], !from.isEmpty else {
            throw UsageError(
                description: "HERALD_MAIL_FROM (the sender address) is required when HERALD_SMTP_URL is set")
        }
        do {
            _ = try Mailer.parseSender(from)
        } catch {
            throw UsageError(description: "HERALD_MAIL_FROM: \(error.description)")
        }
        configuration.smtpURL = url
        configuration.mailFrom = from
    }

    private static func databaseURL(_ text: String) throws(UsageError) -> String {
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            throw UsageError(description: "--database takes a postgres://user:password@host:port/name URL")
        }
        return text
    }

    private static func applyLimit(_ text: String?, to value: inout Int) throws(UsageError) {
        guard let text, !text.isEmpty else { return }
        guard let number = Int(text), number > 0 else {
            throw UsageError(description: "limits must be positive whole numbers, not \(text)")
        }
        value = number
    }

    private static func port(_ text: String) throws(UsageError) -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError(description: "port must be 0…65535, not \(text)")
        }
        return port
    }

    private static func headDeadline(_ text: String, name: String) throws(UsageError) -> Int {
        guard let seconds = Int(text), (1...3600).contains(seconds) else {
            throw UsageError(description: "\(name) must be a number of seconds from 1 to 3600, not \(text)")
        }
        return seconds
    }

    /// 0 turns the limit off (for a server behind a proxy, where every client shares its address).
    private static func perAddress(_ text: String, name: String) throws(UsageError) -> Int {
        guard let number = Int(text), (0...100_000).contains(number) else {
            throw UsageError(description: "\(name) must be a number from 0 (no limit) to 100000, not \(text)")
        }
        return number
    }

    private static func positive(_ text: String, name: String) throws(UsageError) -> Int {
        guard let number = Int(text), number > 0, number <= 256 else {
            throw UsageError(description: "\(name) must be a number from 1 to 256, not \(text)")
        }
        return number
    }
}
