import Foundation
import TestSupport

@testable import Herald

/// The services over a fresh database, called directly — no sockets, no HTML — for tests of the
/// rules themselves. Accounts are made through `Accounts` as the site makes them.
struct ServiceFixture {
    let app: TestApp
    let clock = TestClock()

    init() throws {
        let clock = self.clock
        app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
    }

    var database: Database { app.app.database }

    var newsroom: Newsroom { Newsroom(articles: app.app.articles, clock: clock.clock) }

    var moderation: Moderation {
        Moderation(
            store: ModerationStore(database: database), comments: CommentStore(database: database),
            accounts: AccountStore(database: database), articles: app.app.articles, clock: clock.clock)
    }

    var comments: Comments {
        Comments(
            articles: app.app.articles, comments: CommentStore(database: database),
            limiter: RateLimiter(store: RateLimitStore(database: database), clock: clock.clock), clock: clock.clock,
            perMinute: 5)
    }

    var likes: Likes { Likes(likes: app.app.likes, clock: clock.clock) }

    /// A new account holding `roles`.
    func account(_ name: String, _ roles: Role...) throws -> User {
        guard
            case .registered(var user, _) = try app.app.accounts.register(
                username: name, password: "a-long-pass-phrase", address: "192.0.2.\(name.count)")
        else { throw TestClientError("could not register \(name)") }
        for role in roles {
            _ = try app.app.accounts.change(role, of: name, granted: true)
            user.roles.insert(role == .editor ? .editor : role == .moderator ? .moderator : .admin)
        }
        return user
    }

    /// A published article written by `editor`.
    func publishedArticle(by editor: User, title: String = "Harbour reopens") throws -> Article {
        var submission = ArticleSubmission()
        submission.title = title
        submission.body = "The harbour reopened at dawn."
        guard case .saved(let article, _) = try newsroom.create(submission, action: .publish, by: editor) else {
            throw TestClientError("could not publish \(title)")
        }
        return article
    }
}
