import Foundation
import HTTP

/// The assembled application: store, services, controllers and middleware, built
/// the same way for `herald serve` and for the tests.
public final class HeraldApp: Sendable {
    public let configuration: Configuration
    public let database: Database
    public let articles: ArticleStore
    public let likes: LikeStore
    public let accounts: Accounts
    public let keys: SecretKeys
    /// Sends mail (password resets) off the request path; nil without `HERALD_SMTP_URL`.
    public let mailer: Mailer?
    /// Mails the reply digests, on a timer `herald serve` starts (tests run its rounds
    /// themselves); nil without a mailer.
    let replyDigests: ReplyDigestSender?
    public let responder: Application<RequestContext>
    /// What `/metrics` shows; nil unless `--metrics-port` or `HERALD_METRICS_TOKEN` is set.
    public let metrics: Metrics?
    /// The patterns of every POST route, and of the resumable ones (for the test that they agree
    /// with `ResumableActions.notResumable`).
    let postRoutes: [String]
    let resumablePaths: [String]
    /// Where absolute links point; tell it the port once the server listens.
    public let site: SiteAddress
    /// Shared pages, one copy per page and interface language (its counts, for tests and metrics).
    let pageCache: PageCache
    /// The interface's words in each language.
    let catalogs: MessageCatalogs

    public init(configuration: Configuration, log: Logger) throws {
        self.configuration = configuration
        let site = SiteAddress(configuration: configuration)
        self.site = site
        // The data directory holds password hashes and the key: readable by its owner only.
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        database = try Database(
            backend: configuration.databaseBackend,
            busyTimeoutMilliseconds: configuration.databaseBusyTimeoutMilliseconds)
        articles = ArticleStore(database: database)
        likes = LikeStore(database: database)
        keys = try SecretKeys.load(
            secret: configuration.secret, previous: configuration.previousSecrets,
            dataDirectory: configuration.dataDirectory)
        if configuration.accounts.passwordCost == .minimum {
            log.warning(
                "HERALD_PASSWORD_COST=minimum: passwords are hashed with the weakest argon2id cost (tests only)")
        }
        let limiter = RateLimiter(store: RateLimitStore(database: database), clock: configuration.clock)
        accounts = try Accounts(
            store: AccountStore(database: database), limiter: limiter,
            rules: try AccountRules.load(contentDirectory: configuration.contentDirectory),
            settings: configuration.accounts, clock: configuration.clock)
        let hashingPool = WorkerPool(
            name: "password-hashing", threads: configuration.accounts.hashingThreads,
            queueLimit: configuration.accounts.hashingQueueLimit,
            // argon2id keeps a core busy for ~100 ms a login; pages must not wait behind it.
            niceness: 10, busyMessage: "Too many people are logging in right now. Please try again in a moment.")
        // Actions resumed after a login run here, at ordinary priority (see `AfterLogin`).
        let actionPool = WorkerPool(
            name: "resumed-actions", threads: 2, queueLimit: configuration.accounts.hashingQueueLimit)
        mailer = try Mailer.configured(from: configuration, log: log)
        let sections = SectionStore(database: database)
        let views = try Views(
            directory: configuration.templatesDirectory, reloadOnChange: configuration.developmentMode,
            menu: SectionMenu(store: sections, database: database, clock: configuration.clock),
            site: configuration.site,
            baseURL: configuration.baseURL)

        if configuration.loadDemoContent, try articles.isEmpty() {
            do {
                let added = try DemoContent.load(
                    from: configuration.contentDirectory, into: articles, now: configuration.clock.now())
                log.info("loaded \(added) demo articles into the new database")
            } catch StoreError.constraint {
                // Several servers started on one new shared database: another one loaded them first.
                log.info("demo articles were loaded by another server")
            }
        }

        let comments = CommentStore(database: database)
        let pages = ArticlePages(articles: articles, sections: sections, clock: configuration.clock)
        let articlePage = ArticlePage(likes: likes, comments: comments, views: views, clock: configuration.clock)
        let likesController = LikesController(
            likes: Likes(likes: likes, clock: configuration.clock), pages: pages, views: views)
        let commentRules = Comments(
            articles: articles, comments: comments, limiter: limiter, clock: configuration.clock,
            perMinute: configuration.commentsPerMinute)
        let commentsController = CommentsController(
            comments: commentRules, pages: pages, page: articlePage, views: views)
        // Never from the request's Host: a forged one would carry a mailed token elsewhere.
        let mailBaseURL = configuration.baseURL ?? "http://\(configuration.host):\(configuration.port)"
        let emailMail = mailer.map {
            EmailChangeMail(mailer: $0, siteName: configuration.site.name, baseURL: mailBaseURL)
        }
        let replyMail = ReplyMail(
            store: ReplyMailStore(database: database), tokens: UnsubscribeTokens(keys: keys),
            clock: configuration.clock)
        replyDigests = mailer.map {
            ReplyDigestSender(
                replyMail: replyMail,
                mail: ReplyDigestMail(
                    mailer: $0, siteName: configuration.site.name, site: site, catalogs: views.catalogs),
                clock: configuration.clock, log: log)
        }
        let accountSettings = AccountSettingsController(
            accounts: accounts, views: views, emailMail: emailMail, replyMail: replyMail)
        let mediaLibrary = MediaLibrary(store: MediaStore(database: database), clock: configuration.clock)
        let editor = EditorController(
            newsroom: Newsroom(articles: articles, clock: configuration.clock), media: mediaLibrary, views: views)
        let moderationController = ModerationController(
            moderation: Moderation(
                store: ModerationStore(database: database), comments: comments,
                accounts: AccountStore(database: database), articles: articles, clock: configuration.clock),
            views: views)
        // Every POST that survives login, fixed here once: their routes are registered from it.
        let resumable = ResumableActions(
            all: likesController.resumableActions + commentsController.resumableActions
                + accountSettings.resumableActions + editor.resumableActions + moderationController.resumableActions)
        let intents = PendingActions(
            actions: resumable.all, codec: IntentCodec(keys: keys),
            performed: PerformedIntentStore(database: database),
            parking: Parking(
                store: ParkedFormStore(database: database), accounts: accounts, limits: configuration.parkingLimits,
                clock: configuration.clock),
            clock: configuration.clock, log: log,
            showText: { message, status, texts, context in
                views.returnedText(message, status: status, title: "Not done", texts: texts, context: context)
            })

        var router = Router<RequestContext>()
        HealthController(database: database).addRoutes(to: &router)
        // One encoder for the page cache's templates and for everything compressed per response.
        let pageEncoder = PageEncoder()
        let pageCache = PageCache(database: database, encoder: pageEncoder)
        self.pageCache = pageCache
        catalogs = views.catalogs
        ArticlesController(pages: pages, page: articlePage, views: views, cache: pageCache)
            .addRoutes(to: &router)
        resumable.register(on: &router, intents: intents, hashingPool: hashingPool)
        commentsController.addRoutes(to: &router)
        RepliesController(comments: commentRules, views: views).addRoutes(to: &router)
        likesController.addRoutes(to: &router)
        accountSettings.addRoutes(to: &router)
        editor.addRoutes(to: &router)
        moderationController.addRoutes(to: &router)
        MediaController(media: mediaLibrary).addRoutes(to: &router)
        CrawlersController(
            sitemaps: Sitemaps(articles: articles, sections: sections, clock: configuration.clock), site: site
        )
        .addRoutes(to: &router)
        SearchController(
            search: Search(store: SearchStore(database: database), clock: configuration.clock), views: views
        )
        .addRoutes(to: &router)
        let afterLogin = AfterLogin(
            intents: intents, accounts: accounts, actionPool: actionPool,
            returnedTextPage: { message, status, texts, context in
                views.returnedText(message, status: status, title: "Suspended", texts: texts, context: context)
            })
        AccountsController(accounts: accounts, views: views, hashingPool: hashingPool, afterLogin: afterLogin)
            .addRoutes(to: &router)
        PasswordResetController(
            accounts: accounts, views: views, hashingPool: hashingPool, afterLogin: afterLogin,
            resetMail: mailer.map { mailer in
                PasswordResetMail(mailer: mailer, siteName: configuration.site.name, site: site)
            }
        ).addRoutes(to: &router)
        EmailConfirmationController(accounts: accounts, views: views, emailMail: emailMail).addRoutes(to: &router)
        LoginLinkController(
            accounts: accounts, views: views, afterLogin: afterLogin,
            mail: mailer.map {
                LoginLinkMail(mailer: $0, siteName: configuration.site.name, baseURL: mailBaseURL)
            }
        ).addRoutes(to: &router)
        ProfilesController(
            profiles: Profiles(store: ProfileStore(database: database), clock: configuration.clock), views: views
        )
        .addRoutes(to: &router)
        ReplyMailController(replyMail: replyMail, views: views).addRoutes(to: &router)
        IntentController(intents: intents).addRoutes(to: &router)
        LanguageController(accounts: accounts).addRoutes(to: &router)
        FeedController(pages: pages, views: views, cache: pageCache, site: site).addRoutes(to: &router)
        StaticController(files: try StaticFiles(root: configuration.publicDirectory)).addRoutes(to: &router)

        let metrics = configuration.metricsEnabled ? Metrics(prefix: "herald") : nil
        self.metrics = metrics
        if let metrics {
            Self.registerMetrics(
                metrics, database: database, pageCache: pageCache, compression: pageEncoder.counts, intents: intents,
                hashingPool: hashingPool, mailer: mailer)
            MetricsController(metrics: metrics, token: configuration.metricsToken).addRoutes(to: &router)
        }
        let routes = router
        postRoutes = router.routes.filter { $0.method == .post }.map(\.pattern)
        resumablePaths = resumable.all.map(\.path)

        // The order here is the order of protection: log everything, add security headers to
        // everything (error pages included), compress what goes out, turn errors into pages,
        // refuse malformed requests before any of our code reads them, then find the reader,
        // refuse cross-site POSTs before any handler runs, and carry one-shot messages.
        let middleware: [(any Middleware<RequestContext>)?] = [
            AccessLog(log: configuration.accessLog ? log : .silent, secretPrefixes: Self.pathsWithSecrets) {
                routes.pattern(for: $0)
            },
            metrics.map { metrics in
                RequestMetrics(metrics: metrics, routes: routes.patterns) { routes.pattern(for: $0) }
            },
            SecurityHeaders(
                contentSecurityPolicy: ContentSecurityPolicy.herald,
                strictTransportSecurity: configuration.baseURL?.hasPrefix("https://") == true
                    ? "max-age=31536000; includeSubDomains" : nil),
            // Outside the error pages, so that they too go out compressed.
            Compression(encoder: pageEncoder),
            LanguageHeaders(),
            ErrorPages(log: log) { error, request, context in
                // The page's script asks for JSON: it shows the message next to the form (in the
                // reader's language; the key stays `error`).
                if request.prefersJSON {
                    return .json(["error": context.messages.translated(error.message)], status: error.status)
                }
                // A page that is not there offers the latest articles (a database that fails here
                // still gets its page, without them).
                let latest = error.status == .notFound ? ((try? pages.latest(5)) ?? []) : []
                return views.errorPage(error, context: context, latest: latest)
            },
            RequestValidation(),
            StoreFailures(log: log),
            ClientInfo(
                trustProxy: configuration.trustForwardedProto,
                servedOverHTTPS: configuration.baseURL?.hasPrefix("https://") ?? false),
            LanguageNegotiation(catalogs: views.catalogs),
            SessionMiddleware(accounts: accounts) { error, request, context in
                // What the POST carried that a person typed comes back to copy: text is never dropped.
                let form = try? request.form()
                let typed: [(label: String, name: String, text: String)] = [
                    ("Title", "title"), ("Summary", "summary"), ("Text", "body"), ("Note", "note"),
                ].compactMap { label, name in form?[name].map { (label, name, $0) } }
                return views.returnedText(
                    error.message, status: error.status, title: "Suspended", texts: typed, context: context)
            },
            CrossOriginProtection(
                tokens: CSRFTokens(keys: keys), baseURL: configuration.baseURL,
                // The language switcher, and the one-click unsubscribe mail providers post without
                // cookies (FormTokenExemption says why each may do without).
                withoutFormToken: [
                    .preference(path: LanguageController.path), .tokenInPath(prefix: ReplyMailPaths.unsubscribePrefix),
                ]),
            FlashMessages(keys: keys),
        ]
        let largeBodySenders = LargeBodySenders(
            accounts: accounts, trustProxy: configuration.trustForwardedProto, log: log)
        responder = Application(
            middleware: middleware.compactMap { $0 }, router: router,
            largeBodyClient: { largeBodySenders.client(for: $0) }
        ) { [siteMessages = views.catalogs.siteMessages] _ in RequestContext(messages: siteMessages) }
    }

    /// Paths whose last segment is a mailed secret, never written to the access log.
    static let pathsWithSecrets = [
        "/password/reset/", "/account/email/confirm/", "/login/link/", ReplyMailPaths.unsubscribePrefix,
    ]

    /// The series `/metrics` shows beyond requests: read from each part's own counters when shown.
    private static func registerMetrics(
        _ metrics: Metrics, database: Database, pageCache: PageCache, compression: CompressionCounts,
        intents: PendingActions, hashingPool: WorkerPool, mailer: Mailer?
    ) {
        metrics.declare(
            "herald_page_cache_total", .counter, help: "Shared pages served from the cache (hit) or rendered (miss).")
        metrics.gauge("herald_page_cache_total", [("result", "hit")]) { Double(pageCache.counts.hits) }
        metrics.gauge("herald_page_cache_total", [("result", "miss")]) { Double(pageCache.counts.misses) }
        metrics.declare(
            "herald_compressions_total", .counter,
            help: "Responses compressed, by coding: shared pages compressed once into a template (shared), "
                + "served from one (from_template), compressed as sent (per_response), or refused as templates.")
        for event in CompressionCounts.Event.allCases {
            for coding in ContentCoding.compressing {
                metrics.gauge("herald_compressions_total", [("encoding", coding.rawValue), ("kind", event.rawValue)]) {
                    Double(compression.count(event, coding))
                }
            }
        }
        metrics.declare("herald_database_write_seconds_total", .counter, help: "Time spent in write transactions.")
        metrics.gauge("herald_database_write_seconds_total") { database.writeSeconds }
        metrics.declare("herald_database_writes_total", .counter, help: "Write transactions committed.")
        metrics.gauge("herald_database_writes_total") { Double(database.writeCount) }
        metrics.declare("herald_hashing_queue", .gauge, help: "Password hashings waiting for a thread.")
        metrics.gauge("herald_hashing_queue") { Double(hashingPool.load.queued) }
        metrics.declare(
            "herald_hashing_refused_total", .counter, help: "Logins refused (503) because the hashing queue was full.")
        metrics.gauge("herald_hashing_refused_total") { Double(hashingPool.load.refused) }
        metrics.declare(
            "herald_intents_captured_total", .counter, help: "Anonymous POSTs captured for after login, by action.")
        metrics.declare(
            "herald_intents_performed_total", .counter, help: "Captured actions performed after login, by action.")
        metrics.declare("herald_intents_refused_total", .counter, help: "Captured actions not performed, by reason.")
        for name in ResumableActionName.allCases {
            metrics.gauge("herald_intents_captured_total", [("action", name.rawValue)]) {
                Double(intents.captured.snapshot[name.rawValue] ?? 0)
            }
            metrics.gauge("herald_intents_performed_total", [("action", name.rawValue)]) {
                Double(intents.performedCount.snapshot[name.rawValue] ?? 0)
            }
        }
        for reason in PendingActions.refusalReasons {
            metrics.gauge("herald_intents_refused_total", [("reason", reason)]) {
                Double(intents.refused.snapshot[reason] ?? 0)
            }
        }
        if let mailer {
            metrics.declare("herald_mail_total", .counter, help: "Mail sent, or given up on after every attempt.")
            metrics.gauge("herald_mail_total", [("result", "sent")]) { Double(mailer.sent) }
            metrics.gauge("herald_mail_total", [("result", "failed")]) { Double(mailer.failed) }
        }
    }
}
