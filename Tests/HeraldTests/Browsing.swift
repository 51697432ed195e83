import Foundation
import Synchronization
import TestSupport

@testable import Herald

/// Moves of a reader through the site, as a browser without Fetch Metadata headers makes
/// them: forms are read from the page and submitted with their hidden fields.
extension HTTPTestClient {
    /// The CSRF token of the first form on `path`.
    func formToken(on path: String) throws -> String {
        let page = try get(path)
        guard let token = hiddenField("csrf_token", in: page.text) else {
            throw TestClientError("no csrf_token on \(path) (status \(page.status))")
        }
        return token
    }

    func register(_ username: String, _ password: String = "a-long-pass-phrase") throws -> TestResponse {
        let token = try formToken(on: "/register")
        return try post("/register", form: [("csrf_token", token), ("username", username), ("password", password)])
    }

    func login(_ username: String, _ password: String = "a-long-pass-phrase", next: String? = nil) throws
        -> TestResponse
    {
        let token = try formToken(on: "/login")
        var form = [("csrf_token", token), ("username", username), ("password", password)]
        if let next { form.append(("next", next)) }
        return try post("/login", form: form)
    }

    func logout() throws -> TestResponse {
        try post("/logout", form: [("csrf_token", try formToken(on: "/"))])
    }

    /// Submits the like (or unlike) form exactly as the article page renders it.
    func submitLikeForm(_ slug: String) throws -> TestResponse {
        let page = try get("/articles/\(slug)")
        guard let action = firstMatch(#"<form method="post" action="(/articles/[^"]+/(?:un)?like)""#, in: page.text),
            let token = hiddenField("csrf_token", in: page.text)
        else { throw TestClientError("no like form on \(slug)") }
        return try post(action, form: [("csrf_token", token)])
    }

    func likeCount(_ slug: String) throws -> Int {
        let page = try get("/articles/\(slug)").text
        return Int(firstMatch(#"data-like-count="(\d+)""#, in: page) ?? "") ?? -1
    }
}

func hiddenField(_ name: String, in html: String) -> String? {
    firstMatch(#"name="\#(name)" value="([^"]*)""#, in: html)
}

func firstMatch(_ pattern: String, in text: String) -> String? {
    matches(of: pattern, in: text).first
}

/// A clock tests can move forward.
final class TestClock: Sendable {
    private let offset = Atomic<Int>(0)
    let base = Int(Date().timeIntervalSince1970)

    var clock: Clock { Clock { [self] in base + offset.load(ordering: .relaxed) } }

    func advance(_ seconds: Int) { offset.add(seconds, ordering: .relaxed) }
}

extension TestApp {
    /// The slug of the newest article.
    func firstSlug() throws -> String {
        guard let slug = try app.articles.page(1, size: 1).articles.first?.slug else {
            throw TestClientError("no articles")
        }
        return slug
    }
}
