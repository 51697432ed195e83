import TestSupport
import Testing

@testable import Herald

/// SPEC, "Rules": a cross-site POST is refused with 403 and changes nothing — not even the intent cookie.
@Suite struct CrossOriginTests {
    @Test(arguments: [
        [("Sec-Fetch-Site", "cross-site")], [("Sec-Fetch-Site", "same-site")],
        [("Origin", "https://evil.example")], [("Origin", "null")],
        [("Sec-Fetch-Site", "cross-site"), ("Origin", "http://127.0.0.1")],
        [("Sec-Fetch-Site", "same-origin"), ("Origin", "https://evil.example")],
    ])
    func crossSiteLikeIsRefusedAndStoresNothing(headers: [(String, String)]) throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let client = app.client()
        let token = try client.formToken(on: "/articles/\(slug)")
        let response = try client.post("/articles/\(slug)/like", form: [("csrf_token", token)], headers: headers)
        #expect(response.status == 403)
        #expect(response.headers.values(for: "Set-Cookie").allSatisfy { !$0.hasPrefix("herald_intent=") })
        #expect(client.cookies["herald_intent"] == nil)
    }

    @Test func crossSiteLogoutAndLikeByAReaderChangeNothing() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let client = app.client()
        _ = try client.register("victim")
        let like = try client.post("/articles/\(slug)/like", form: [], headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(like.status == 403)
        #expect(try client.likeCount(slug) == 0)
        let logout = try client.post("/logout", form: [], headers: [("Origin", "https://evil.example")])
        #expect(logout.status == 403)
        #expect(try client.get("/").text.contains("victim"))
    }

    @Test func sameOriginHeadersPassWithoutAToken() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let fetchMetadata = app.client()
        _ = try fetchMetadata.register("modern")
        #expect(
            try fetchMetadata.post("/articles/\(slug)/like", form: [], headers: [("Sec-Fetch-Site", "same-origin")])
                .status == 303)
        let origin = app.client()
        _ = try origin.register("older")
        #expect(
            try origin.post("/articles/\(slug)/like", form: [], headers: [("Origin", "http://\(app.host)")])
                .status == 303)
        #expect(try origin.likeCount(slug) == 2)
    }

    @Test func withNeitherHeaderTheTokenDecides() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let client = app.client()
        _ = try client.register("plain")
        #expect(try client.post("/articles/\(slug)/like", form: []).status == 403, "missing token")
        #expect(try client.post("/articles/\(slug)/like", form: [("csrf_token", "forged")]).status == 403)
        let otherToken = try app.client().formToken(on: "/login")
        #expect(try client.post("/articles/\(slug)/like", form: [("csrf_token", otherToken)]).status == 403)
        #expect(try client.submitLikeForm(slug).status == 303)
        #expect(try client.likeCount(slug) == 1)
    }

    @Test func eachVisitorGetsTheirOwnTokenEvenFromACachedPage() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let first = app.client()
        let second = app.client()
        let firstToken = try first.formToken(on: "/articles/\(slug)")
        let secondToken = try second.formToken(on: "/articles/\(slug)")
        #expect(firstToken != secondToken)
        #expect(!firstToken.contains("marker"))
        #expect(try second.post("/articles/\(slug)/like", form: [("csrf_token", firstToken)]).status == 403)
        #expect(try first.post("/articles/\(slug)/like", form: [("csrf_token", firstToken)]).status == 303)
        #expect(try second.post("/articles/\(slug)/like", form: [("csrf_token", secondToken)]).status == 303)
    }

    @Test func readersSeeTheirOwnNameTokenAndLikeStateFromSharedPages() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let alice = app.client()
        _ = try alice.register("alice-reader")
        let bob = app.client()
        _ = try bob.register("bob-reader")
        _ = try alice.submitLikeForm(slug)
        _ = try alice.get("/articles/\(slug)")  // the flash is shown once
        for _ in 0..<2 {  // the second time from the cache
            let alicePage = try alice.get("/articles/\(slug)").text
            let bobPage = try bob.get("/articles/\(slug)").text
            #expect(alicePage.contains("<strong>alice-reader</strong>") && !alicePage.contains("bob-reader"))
            #expect(bobPage.contains("<strong>bob-reader</strong>") && !bobPage.contains("alice-reader"))
            #expect(alicePage.contains("action=\"/articles/\(slug)/unlike\""))
            #expect(bobPage.contains("action=\"/articles/\(slug)/like\""))
            #expect(!alicePage.contains("marker") && !bobPage.contains("marker"))
            let front = try bob.get("/").text
            #expect(front.contains("<strong>bob-reader</strong>"))
        }
        // Each page's token works for its reader only.
        let bobToken = try #require(hiddenField("csrf_token", in: try bob.get("/articles/\(slug)").text))
        #expect(try alice.post("/articles/\(slug)/unlike", form: [("csrf_token", bobToken)]).status == 403)
        #expect(try bob.post("/articles/\(slug)/like", form: [("csrf_token", bobToken)]).status == 303)
    }

    @Test func tokensSurviveKeyRotation() {
        let old = CSRFTokens(keys: SecretKeys(current: "old-secret-0123456789"))
        let rotated = CSRFTokens(
            keys: SecretKeys(current: "new-secret-0123456789", previous: ["old-secret-0123456789"]))
        let stranger = CSRFTokens(keys: SecretKeys(current: "new-secret-0123456789"))
        let token = old.token(binding: "a:visitor")
        #expect(rotated.isValid(token, binding: "a:visitor"))
        #expect(!stranger.isValid(token, binding: "a:visitor"))
        #expect(!rotated.isValid(token, binding: "a:someone-else"))
    }

    @Test func aRememberedTokenIsTheTokenAndTheMemoryStaysBounded() {
        let tokens = CSRFTokens(keys: SecretKeys(current: "memo-secret-0123456789"))
        let fresh = CSRFTokens(keys: SecretKeys(current: "memo-secret-0123456789"))
        let first = tokens.token(binding: "a:returning", remember: true)
        #expect(first == fresh.token(binding: "a:returning"))
        #expect(tokens.token(binding: "a:returning", remember: true) == first)
        // Past the memory's capacity it is emptied, and every token is still the right one.
        for index in 0...CSRFTokens.rememberedCapacity {
            let binding = "a:visitor-\(index)"
            #expect(tokens.token(binding: binding, remember: true) == fresh.token(binding: binding))
        }
        #expect(tokens.token(binding: "a:returning", remember: true) == first)
        #expect(tokens.isValid(first, binding: "a:returning"))
    }
}
