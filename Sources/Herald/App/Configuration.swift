import HTTP

/// Everything Herald can be told at start-up, from flags and the environment.
/// Flags win over environment variables; both win over the defaults here.
public struct Configuration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Holds the SQLite database and, unless `HERALD_SECRET` is set, the generated key file.
    public var dataDirectory = "./data"
    /// `--database postgres://…` / `HERALD_DATABASE_URL`: a shared PostgreSQL database instead of
    /// SQLite in `dataDirectory` (for several servers; see README, "Running on several machines").
    public var databaseURL: String?
    /// Where `Templates/`, `Public/` and `Content/` are found (the checkout, by default the working directory).
    public var rootDirectory = "."
    /// Re-read templates when their files change.
    public var developmentMode = false
    /// Fill an empty database with the bundled demo articles.
    public var loadDemoContent = true
    /// libmicrohttpd worker threads (default: one per core).
    public var threads = ServerConfiguration().threads
    /// Largest accepted request body.
    public var maxBodyBytes = 64 * 1024
    /// `--head-deadline` / `HERALD_HEAD_DEADLINE_SECONDS`: a request's line and headers must be
    /// complete this long after they began, or the connection is closed.
    public var headDeadlineSeconds = ServerConfiguration().requestHeadDeadlineSeconds
    /// `--max-connections-per-address` / `HERALD_MAX_CONNECTIONS_PER_ADDRESS` (0: no limit); nil
    /// means the default, `connectionsPerAddressLimit`.
    public var connectionsPerAddress: Int?
    /// Absolute base URL for the Atom feed (`https://news.example`); else taken from the request's Host.
    public var baseURL: String?
    /// The site's name, description and language.
    public var site = SiteIdentity()
    /// `--metrics-port`: a second listener (on `host`) that serves only `/metrics`; nil: none.
    public var metricsPort: Int?
    /// `HERALD_METRICS_TOKEN`: `/metrics` on the site's own port for requests bearing it; nil: 404.
    public var metricsToken: String?
    /// Metrics are collected only when something can read them.
    public var metricsEnabled: Bool { metricsPort != nil || metricsToken != nil }
    /// Log every request (one line each) to standard error.
    public var accessLog = true
    /// `HERALD_LOG_FORMAT`: `text` (a line of words) or `json` (one object a line).
    public enum LogFormat: String, Sendable { case text, json }
    public var logFormat = LogFormat.text
    /// `HERALD_LOG_LEVEL`: the least severe level written.
    public var logLevel = Logger.Level.info
    /// `HERALD_SECRET`: the signing key shared by every server of a site; nil generates one into `dataDirectory`.
    public var secret: String?
    /// `HERALD_PREVIOUS_SECRETS`: older keys still accepted for verification during a rotation.
    public var previousSecrets: [String] = []
    /// `HERALD_TRUST_PROXY=1`: believe `X-Forwarded-Proto: https` (set only behind a TLS proxy you run).
    public var trustForwardedProto = false
    /// Password hashing cost, session lifetimes and brute-force limits.
    public var accounts = AccountSettings()
    /// Comments one reader may post per minute (`HERALD_COMMENTS_PER_MINUTE`).
    public var commentsPerMinute = 5
    /// Forms too large for the intent cookie, kept server-side until login: how many per client,
    /// how many bytes in all, for how long.
    public var parkingLimits = ParkingLimits()
    /// How long a database statement waits for a lock before the request is answered 503.
    public var databaseBusyTimeoutMilliseconds: Int32 = 5000
    /// `HERALD_SMTP_URL`: `smtp://[user:password@]host[:port]` (STARTTLS when offered) or
    /// `smtps://…`; nil means no email is sent (see `Mailer.configured`).
    public var smtpURL: String?
    /// `HERALD_MAIL_FROM`: the sender, `news@example.com` or `Herald <news@example.com>`.
    public var mailFrom: String?
    /// How often this server looks for reply digests to send (`HERALD_REPLY_MAIL_CHECK_SECONDS`);
    /// a reader still gets at most one mail per 15 minutes, whatever this is.
    public var replyMailCheckSeconds = 60
    /// The time; tests move it.
    public var clock = Clock.system

    public init() {}

    public var templatesDirectory: String { rootDirectory + "/Templates" }
    public var publicDirectory: String { rootDirectory + "/Public" }
    public var contentDirectory: String { rootDirectory + "/Content" }

    /// Where the data lives: the PostgreSQL URL when one is configured, else SQLite in the data directory.
    public var databaseBackend: Database.Backend {
        if let databaseURL { return .postgres(url: databaseURL) }
        return .sqlite(path: dataDirectory + "/herald.sqlite3")
    }

    /// Connections one client address may hold at once (0: no limit). Behind a trusted proxy
    /// every connection comes from the proxy's address, so unless set explicitly the limit is
    /// off there; the proxy is then what limits each client (and must buffer slow requests).
    public var connectionsPerAddressLimit: Int {
        connectionsPerAddress ?? (trustForwardedProto ? 0 : ServerConfiguration().connectionsPerAddressLimit)
    }

    var serverConfiguration: ServerConfiguration {
        var server = ServerConfiguration()
        server.host = host
        server.port = port
        server.threads = threads
        server.maxBodyBytes = maxBodyBytes
        server.requestHeadDeadlineSeconds = headDeadlineSeconds
        server.connectionsPerAddressLimit = connectionsPerAddressLimit
        return server
    }
}
