import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

@testable import Herald

/// One rate limiter, checked and recorded in one step (issue #14, item 5).
@Suite struct RateLimitTests {
    /// A limiter on a fresh database of the store under test; `body` runs while it exists.
    private func withLimiter(_ body: (RateLimiter) throws -> Void) throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let made = try TestDatabase.make(in: directory)
        defer { made.drop() }
        let database = try Database(backend: made.backend)
        defer { database.close() }
        try body(RateLimiter(store: RateLimitStore(database: database), clock: .system))
    }

    @Test func fiftyParallelAttemptsAgainstALimitOfTenAllowExactlyTen() throws {
        try withLimiter { limiter in
            let allowed = Atomic<Int>(0)
            let failures = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 50) { _ in
                do {
                    if case .allowed = try limiter.check(.init("parallel", limit: 10, window: 60)) {
                        allowed.add(1, ordering: .relaxed)
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
            #expect(failures.load(ordering: .relaxed) == 0)
            #expect(allowed.load(ordering: .relaxed) == 10)
            guard case .retryAfter(let seconds) = try limiter.check(.init("parallel", limit: 10, window: 60)) else {
                Issue.record("the eleventh attempt was allowed")
                return
            }
            #expect((1...60).contains(seconds))
        }
    }

    @Test func aGivenBackAttemptDoesNotCount() throws {
        try withLimiter { limiter in
            for _ in 0..<5 {
                guard case .allowed(let reservation) = try limiter.check(.init("kind", limit: 2, window: 60)) else {
                    Issue.record("refused although every attempt was given back")
                    return
                }
                try limiter.giveBack(reservation)
            }
        }
    }

    /// Over sockets: fifty connections served by the server's threads (and its hashing pool) at once.
    @Test func fiftyParallelWrongPasswordsAgainstALimitOfTen() throws {
        let app = try TestApp(demo: false) {
            $0.accounts.loginFailuresPerUsername = 10
            $0.accounts.hashingQueueLimit = 64
        }
        _ = try app.client().register("target")
        let before = app.app.accounts.verifications.load(ordering: .relaxed)
        let statuses = Mutex<[Int]>([])
        let port = app.port
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            let client = TestClient(port: port)
            client.defaultHeaders = [("Sec-Fetch-Site", "same-origin")]
            let status =
                (try? client.post("/login", form: [("username", "target"), ("password", "not-the-password")]))?
                .status ?? 0
            statuses.withLock { $0.append(status) }
        }
        let seen = statuses.withLock { $0 }
        #expect(seen.filter { $0 == 422 }.count == 10)
        #expect(seen.filter { $0 == 429 }.count == 40)
        #expect(app.app.accounts.verifications.load(ordering: .relaxed) - before == 10)
        // The right password is refused too while the window is full.
        #expect(try app.client().login("target").status == 429)
    }

    /// Over sockets: fifty connections served by the server's threads (and its hashing pool) at once.
    @Test func fiftyParallelCommentsAgainstALimitOfTen() throws {
        let app = try TestApp { $0.commentsPerMinute = 10 }
        let slug = try app.firstSlug()
        let author = app.client()
        _ = try author.register("prolific")
        let session = try #require(author.cookies["herald_session"])
        let statuses = Mutex<[Int]>([])
        let port = app.port
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            let client = TestClient(port: port)
            client.defaultHeaders = [("Sec-Fetch-Site", "same-origin")]
            client.setCookie("herald_session", session)
            let status =
                (try? client.post("/articles/\(slug)/comments", form: [("body", "Comment number \(index).")]))?
                .status ?? 0
            statuses.withLock { $0.append(status) }
        }
        let seen = statuses.withLock { $0 }
        #expect(seen.filter { $0 == 303 }.count == 10)
        #expect(seen.filter { $0 == 429 }.count == 40)
        let page = try author.get("/articles/\(slug)").text
        #expect(occurrences(of: "Comment number ", in: page) == 10)
    }

    @Test(arguments: [
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("192.0.2.7", "192.0.2.7"),
        ("not an address", "not an address"),
    ])
    func addressesAreCountedPerIPv6Slash64(address: String, key: String) {
        #expect(ClientAddressKey.key(for: address) == key)
    }

    @Test func failedLoginsFromOneIPv6Slash64CountTogether() throws {
        let app = try TestApp(server: false, demo: false) {
            $0.trustForwardedProto = true
            $0.accounts.loginFailuresPerAddress = 3
        }
        for attempt in 0..<4 {
            let client = app.client()
            client.defaultHeaders = [
                ("Sec-Fetch-Site", "same-origin"), ("X-Forwarded-For", "2001:db8:7:7::\(attempt + 1)"),
            ]
            let response = try client.post(
                "/login", form: [("username", "nobody\(attempt)"), ("password", "not-the-password")])
            #expect(response.status == (attempt < 3 ? 422 : 429), "attempt \(attempt + 1)")
        }
        let elsewhere = app.client()
        elsewhere.defaultHeaders = [("Sec-Fetch-Site", "same-origin"), ("X-Forwarded-For", "2001:db8:7:8::1")]
        #expect(try elsewhere.post("/login", form: [("username", "nobody"), ("password", "not-it")]).status == 422)
    }
}
