import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

/// SPEC "Roles and the command line" (the user commands) and "Accounts": the life of an account
/// after registration (issue #16).
@Suite struct AccountLifecycleTests {
    private func form(
        _ client: any HTTPTestClient, _ path: String, on page: String = "/account", _ fields: [(String, String)]
    )
        throws -> TestResponse
    {
        let token = try client.formToken(on: page)
        return try client.post(path, form: [("csrf_token", token)] + fields)
    }

    // MARK: Roles and `herald users`

    @Test func usersCommandGrantsRevokesAndListsAndRefusesUnknownNamesAndRoles() throws {
        let app = try TestApp(server: false, demo: false)
        let reader = app.client()
        _ = try reader.register("writer")
        #expect(!(try reader.get("/account").text.contains("Roles:")))

        let granted = try runHerald(["users"] + app.storeArguments + ["grant", "writer", "editor"])
        #expect(granted.status == 0)
        #expect(granted.out == "writer: editor\n")
        // On the reader's next request, without logging in again.
        #expect(try reader.get("/account").text.contains("Roles: editor."))

        let listed = try runHerald(["users"] + app.storeArguments + ["list"])
        #expect(listed.status == 0)
        #expect(listed.out.hasPrefix("writer\teditor\t"))

        let unknownUser = try runHerald(["users"] + app.storeArguments + ["grant", "nobody", "editor"])
        #expect(unknownUser.status == 1)
        #expect(unknownUser.err.contains("no user is called “nobody”"))
        let unknownRole = try runHerald(["users"] + app.storeArguments + ["grant", "writer", "emperor"])
        #expect(unknownRole.status == 1)
        #expect(unknownRole.err.contains("unknown role “emperor”"))
        #expect(try reader.get("/account").text.contains("Roles: editor."), "nothing changed")

        #expect(try runHerald(["users"] + app.storeArguments + ["revoke", "writer", "editor"]).status == 0)
        #expect(!(try reader.get("/account").text.contains("Roles:")))
    }

    @Test func anAdminHoldsEveryRole() {
        #expect(Roles.admin.grants(.editor) && Roles.admin.grants(.moderator) && Roles.admin.grants(.admin))
        #expect(Roles.editor.grants(.editor) && !Roles.editor.grants(.moderator))
        #expect(!Roles().grants(.editor))
    }

    @Test func resetLinkFromTheCommandLineWorksOnceAndLogsTheReaderIn() throws {
        let app = try TestApp(server: false, demo: false)
        _ = try app.client().register("forgetful")
        let printed = try runHerald(
            ["users"] + app.storeArguments + ["reset-link", "forgetful"],
            environment: ["HERALD_BASE_URL": "https://news.example"])
        #expect(printed.status == 0)
        let prefix = "https://news.example/password/reset/"
        #expect(printed.out.hasPrefix(prefix))
        let path =
            "/password/reset/" + printed.out.dropFirst(prefix.count).trimmingCharacters(in: .whitespacesAndNewlines)
        let reader = app.client()
        #expect(try reader.get(path).status == 200)
        let reset = try form(reader, path, on: path, [("new_password", "a-brand-new-phrase")])
        #expect(reset.status == 303)
        #expect(reset["Location"] == "/")
        #expect(try reader.get("/").text.contains("forgetful"), "logged in")
        #expect(try app.client().login("forgetful", "a-brand-new-phrase")["Location"] == "/")
        #expect(try app.client().get(path).status == 404, "single use")
        #expect(try runHerald(["users"] + app.storeArguments + ["reset-link", "ghost"]).status == 1)
    }

    // MARK: The account page

    @Test func theAccountPageNeedsALogin() throws {
        let app = try TestApp(server: false, demo: false)
        let anonymous = try app.client().get("/account")
        #expect(anonymous.status == 303)
        #expect(anonymous["Location"] == "/login?next=/account")
        let reader = app.client()
        _ = try reader.register("settler")
        let page = try reader.get("/account")
        #expect(page.status == 200)
        for action in ["/account/password", "/account/email", "/account/sessions/end-others", "/account/delete"] {
            #expect(page.text.contains("action=\"\(action)\""))
        }
        #expect(page.text.contains("href=\"/account/export\""))
    }

    @Test func changingThePasswordEndsOtherSessionsAndRenewsThisOne() throws {
        let app = try TestApp(server: false, demo: false) { $0.accounts.loginFailuresPerUsername = 3 }
        let reader = app.client()
        _ = try reader.register("changer")
        let elsewhere = app.client()
        _ = try elsewhere.login("changer")
        let before = try #require(reader.cookies["herald_session"])

        let wrong = try form(
            reader, "/account/password", [("current_password", "not-it-at-all"), ("new_password", "a-new-phrase-here")])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("Your current password is not right"))
        let weak = try form(
            reader, "/account/password", [("current_password", "a-long-pass-phrase"), ("new_password", "short")])
        #expect(weak.status == 422)

        let changed = try form(
            reader, "/account/password",
            [("current_password", "a-long-pass-phrase"), ("new_password", "a-new-phrase-here")])
        #expect(changed.status == 303)
        #expect(changed["Location"] == "/account")
        let after = try #require(reader.cookies["herald_session"])
        #expect(after != before, "a new session token")
        #expect(try reader.get("/account").status == 200, "still logged in")
        #expect(try elsewhere.get("/account").status == 303, "the other session ended")
        #expect(try app.client().login("changer")["Location"] == nil, "the old password is refused")
        #expect(try app.client().login("changer", "a-new-phrase-here")["Location"] == "/")
    }

    @Test func aWrongCurrentPasswordCountsTowardTheLoginLimit() throws {
        let app = try TestApp(server: false, demo: false) { $0.accounts.loginFailuresPerUsername = 2 }
        let reader = app.client()
        _ = try reader.register("guessed")
        for _ in 0..<2 {
            #expect(
                try form(
                    reader, "/account/password", [("current_password", "guess-guess"), ("new_password", "x-y-z-w-v-u")]
                )
                .status == 422)
        }
        #expect(try app.client().login("guessed").status == 429)
    }

    /// Issue #28 changed how an address is set: with the current password, and only once the
    /// new address confirms a mailed link; a taken address is no longer a 409 but the same answer
    /// as a free one, with no link sent. What stays: invalid is 422, addresses are lower-cased,
    /// one account per address, removable, and free again once removed.
    @Test func emailIsValidatedLowerCasedUniqueAndRemovable() throws {
        let sink = try SMTPSink()
        let app = try TestApp(server: false, demo: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "news@herald.test"
            $0.baseURL = "http://news.herald.test"
        }
        let password = ("current_password", "a-long-pass-phrase")
        func confirmLink(_ index: Int) throws {
            let text = try #require(try sink.messages(index)[index - 1].part("text/plain"))
            let path = try #require(
                firstMatch(#"http://news\.herald\.test(/account/email/confirm/[A-Za-z0-9_-]{43})"#, in: text))
            let browser = app.client()
            #expect(try form(browser, path, on: path, []).status == 303)
        }
        let reader = app.client()
        _ = try reader.register("mailer")
        for bad in ["no-at-sign", "two@@example.com", "a@nodot", "spa ce@example.com", "x@.com"] {
            #expect(try form(reader, "/account/email", [("email", bad), password]).status == 422, "\(bad)")
        }
        #expect(
            try form(reader, "/account/email", [("email", String(repeating: "a", count: 250) + "@x.io"), password])
                .status == 422)
        let set = try form(reader, "/account/email", [("email", "  Reader@Example.COM "), password])
        #expect(set.status == 303)
        #expect(try sink.messages(1)[0].recipients == ["reader@example.com"])
        try confirmLink(1)
        #expect(try reader.get("/account").text.contains("value=\"reader@example.com\""))

        let other = app.client()
        _ = try other.register("copycat")
        let taken = try form(other, "/account/email", [("email", "READER@example.com"), password])
        #expect(taken.status == 303, "the same answer as for a free address")
        #expect(
            flashText(in: try other.follow(taken).text)
                == AccountSettingsController.checkYourInbox("reader@example.com"))
        let atRegistration = app.client()
        let token = try atRegistration.formToken(on: "/register")
        let registered = try atRegistration.post(
            "/register",
            form: [
                ("csrf_token", token), ("username", "third"), ("password", "a-long-pass-phrase"),
                ("email", "reader@example.com"),
            ])
        #expect(registered.status == 409)

        #expect(try form(reader, "/account/email", [("email", ""), password]).status == 303)
        #expect(try reader.get("/account").text.contains("name=\"email\" value=\"\""))
        // Messages so far: the link to reader@, the notice of its removal. No link for copycat's try.
        #expect(try sink.messages(2)[1].recipients == ["reader@example.com"])
        #expect(try form(other, "/account/email", [("email", "reader@example.com"), password]).status == 303)
        #expect(try sink.messages(3)[2].recipients == ["reader@example.com"], "free again: a link is sent")
        try confirmLink(3)
        #expect(try other.get("/account").text.contains("value=\"reader@example.com\""))
    }

    @Test func registrationTakesAnOptionalEmail() throws {
        let app = try TestApp(server: false, demo: false)
        let reader = app.client()
        let token = try reader.formToken(on: "/register")
        let invalid = try reader.post(
            "/register",
            form: [
                ("csrf_token", token), ("username", "emailer"), ("password", "a-long-pass-phrase"), ("email", "nope"),
            ])
        #expect(invalid.status == 422)
        #expect(invalid.text.contains("value=\"nope\""), "what was typed is kept")
        let fine = try reader.post(
            "/register",
            form: [
                ("csrf_token", try reader.formToken(on: "/register")), ("username", "emailer"),
                ("password", "a-long-pass-phrase"), ("email", "Emailer@Example.org"),
            ])
        #expect(fine.status == 303)
        #expect(try reader.get("/account").text.contains("value=\"emailer@example.org\""))
    }

    @Test func endingOtherSessionsKeepsThisOne() throws {
        let app = try TestApp(server: false, demo: false)
        let reader = app.client()
        _ = try reader.register("traveller")
        let phone = app.client()
        _ = try phone.login("traveller")
        #expect(try form(reader, "/account/sessions/end-others", []).status == 303)
        #expect(try reader.get("/account").status == 200)
        #expect(try phone.get("/account").status == 303)
    }

    @Test func exportIsAnAttachmentWithExactlyTheSpecFields() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let registration = try reader.formToken(on: "/register")
        _ = try reader.post(
            "/register",
            form: [
                ("csrf_token", registration), ("username", "exporter"), ("password", "a-long-pass-phrase"),
                ("email", "exporter@example.com"),
            ])
        _ = try reader.submitLikeForm(slug)
        let token = try reader.formToken(on: "/articles/\(slug)")
        _ = try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "Mine, all mine.")])

        let export = try reader.get("/account/export")
        #expect(export.status == 200)
        #expect(export["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(export["Content-Disposition"]?.hasPrefix("attachment") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.text.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["username", "created", "email", "roles", "likes", "comments"])
        #expect(json["username"] as? String == "exporter")
        #expect(json["email"] as? String == "exporter@example.com")
        let likes = try #require(json["likes"] as? [[String: Any]])
        #expect(likes.count == 1)
        #expect(Set(likes[0].keys) == ["slug", "title", "time"])
        #expect(likes[0]["slug"] as? String == slug)
        let comments = try #require(json["comments"] as? [[String: Any]])
        #expect(comments.count == 1)
        #expect(Set(comments[0].keys) == ["id", "article", "text", "time"])
        #expect(comments[0]["text"] as? String == "Mine, all mine.")
        let session = try #require(reader.cookies["herald_session"])
        #expect(!export.text.contains(session))
        #expect(!export.text.contains("argon2"), "no password hash")
        #expect(try app.client().get("/account/export").status == 303)
    }

    @Test func deletingTheAccountRemovesEverythingAndFixesEveryCount() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let leaver = app.client()
        _ = try leaver.register("leaver")
        _ = try leaver.submitLikeForm(slug)
        for text in ["First words.", "Second thoughts."] {
            let token = try leaver.formToken(on: "/articles/\(slug)")
            _ = try leaver.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        }
        let stayer = app.client()
        _ = try stayer.register("stayer")
        _ = try stayer.submitLikeForm(slug)
        #expect(try stayer.likeCount(slug) == 2)

        #expect(try form(leaver, "/account/delete", [("password", "wrong-password")]).status == 422)
        let deleted = try form(leaver, "/account/delete", [("password", "a-long-pass-phrase")])
        #expect(deleted.status == 303)
        #expect(deleted["Location"] == "/")
        let landing = try leaver.follow(deleted)
        #expect(landing.text.contains("role=\"status\">Your account and everything in it are deleted."))
        #expect(!landing.text.contains("leaver"), "logged out")

        let page = try stayer.get("/articles/\(slug)").text
        #expect(try stayer.likeCount(slug) == 1)
        #expect(!page.contains("First words.") && !page.contains("Second thoughts."))
        let article = try #require(try app.app.articles.article(slug: slug))
        #expect(article.likeCount == 1)
        #expect(article.commentCount == 0)
        #expect(try app.app.likes.countRows(articleID: article.id) == 1)
        #expect(try app.client().login("leaver").status == 422, "the account is gone")
        #expect(try app.client().get("/users/leaver").status == 404)
    }

    // MARK: Resumable account forms

    /// Issue #28: an email change is no longer performed after login. Its password is never
    /// captured, so the reader lands on the form again with the new address typed in, asked for
    /// the password; nothing is changed and nothing is mailed until they send it.
    @Test func anEmailChangeWhoseSessionExpiredComesBackFilledAfterLogin() throws {
        let sink = try SMTPSink()
        let app = try TestApp(server: false, demo: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "news@herald.test"
        }
        _ = try app.client().register("expired")
        let reader = app.client()
        let token = try reader.formToken(on: "/login")
        let captured = try reader.post(
            "/account/email",
            form: [("csrf_token", token), ("email", "later@example.com"), ("current_password", "a-long-pass-phrase")])
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        #expect(try reader.get("/login").text.contains("Log in to change your email address"))
        let cookie = try #require(reader.cookies["herald_intent"])
        let intent = try IntentCodec(keys: SecretKeys(current: "test-secret-0123456789abcdef"))
            .decode(cookie, now: Int(Date().timeIntervalSince1970)).get()
        #expect(intent.fields.compactMap(\.first) == ["email"], "the password is not in the cookie")

        let login = try reader.login("expired")
        let page = login.status == 303 ? try reader.follow(login) : login
        #expect(page.text.contains("name=\"email\" value=\"later@example.com\""), "the form comes back filled")
        let ask = firstMatch(#"id="email-(?:prompt|error)"[^>]*>([^<]*)<"#, in: page.text)
        #expect(ask?.contains("password") == true, "and asks for the password by the field")
        #expect(try app.app.accounts.store.account(named: "expired")?.email == nil, "nothing changed")
        #expect(try reader.get("/account").status == 200, "logged in")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 0, "nothing mailed")
    }

    @Test func aPasswordFormIsNeverCapturedWithItsPasswordButAskedAgain() throws {
        let app = try TestApp(server: false, demo: false)
        _ = try app.client().register("careful")
        let reader = app.client()
        let token = try reader.formToken(on: "/login")
        let captured = try reader.post(
            "/account/delete", form: [("csrf_token", token), ("password", "a-long-pass-phrase")])
        #expect(captured["Location"] == "/login")
        let cookie = try #require(reader.cookies["herald_intent"])
        let intent = try IntentCodec(keys: SecretKeys(current: "test-secret-0123456789abcdef"))
            .decode(cookie, now: Int(Date().timeIntervalSince1970)).get()
        #expect(intent.fields.isEmpty, "the password is not in the cookie")
        let login = try reader.login("careful")
        #expect(login["Location"] == "/account#delete")
        #expect(try reader.follow(login).text.contains("please type your password again to delete your account"))
        #expect(try app.client().login("careful")["Location"] == "/", "the account is still there")
    }

    // MARK: Profiles and the way back

    @Test func profilesListVisibleCommentsNewestFirstWithLinksAndPages() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 100 }
        let slug = try app.firstSlug()
        let author = app.client()
        _ = try author.register("prolific")
        for index in 1...21 {
            let token = try author.formToken(on: "/articles/\(slug)")
            _ = try author.post(
                "/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "Comment \(index).")])
        }
        let profile = try app.client().get("/users/PROLIFIC")
        #expect(profile.status == 200)
        #expect(profile.text.contains("<h1>prolific</h1>"))
        let first = try #require(profile.text.range(of: "Comment 21."))
        let second = try #require(profile.text.range(of: "Comment 20."))
        #expect(first.lowerBound < second.lowerBound, "newest first")
        #expect(!profile.text.contains("Comment 1."))
        #expect(profile.text.contains("href=\"/users/prolific?page=2\""))
        #expect(matches(of: ##"(href="/articles/[^"#]+#comment-\d+")"##, in: profile.text).count == 20)
        let older = try app.client().get("/users/prolific?page=2")
        #expect(older.text.contains("Comment 1."))
        #expect(try app.client().get("/users/prolific?page=3").status == 404)
        #expect(try app.client().get("/users/nobody-here").status == 404)
        #expect(try app.client().get("/users/prolific?page=0").status == 400)
        // Comment authors link to their profile.
        #expect(try app.client().get("/articles/\(slug)").text.contains("href=\"/users/prolific\""))
    }

    @Test func headerLinksBringTheReaderBackAndNextIsOnlyEverALocalPageThatIsNotALoginPage() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        // Twice: the second comes from the page cache, which must put in each reader's own page.
        for path in ["/articles/\(slug)", "/articles/\(slug)", "/?page=2", "/?page=2"] {
            let page = try app.client().get(path).text
            #expect(page.contains("href=\"/login?next=\(PercentEncoding.encode(path))\""), "\(path)")
            #expect(page.contains("href=\"/register?next=\(PercentEncoding.encode(path))\""), "\(path)")
        }
        _ = try app.client().register("returner")
        for (next, landing) in [
            ("/articles/\(slug)", "/articles/\(slug)"), ("/login", "/"), ("/register?x=1", "/"),
            ("/password/forgot", "/"), ("//evil.example", "/"), ("https://evil.example/", "/"),
        ] {
            #expect(try app.client().login("returner", next: next)["Location"] == landing, "\(next)")
        }
    }
}

/// The guard a route group of pages uses (SPEC: 403 to a reader who lacks the role, 303 to
/// `/login?next=…` to someone logged out).
@Suite struct RouteGuardTests {
    @Test func aPageThatNeedsARole() throws {
        let request = Request(method: .get, target: "/editor?page=2", headers: HTTPHeaders())
        var context = RequestContext()
        let redirect = try #require(try RouteGuards.editors(request, &context), "someone logged out was let in")
        #expect(redirect.status == .seeOther)
        #expect(redirect.headers["Location"] == "/login?next=" + PercentEncoding.encode("/editor?page=2"))

        context.user = User(id: 1, username: "reader")
        #expect(throws: HTTPError.self, "a reader without the role was let in") {
            _ = try RouteGuards.editors(request, &context)
        }
        context.user = User(id: 1, username: "boss", roles: .admin)
        #expect(try RouteGuards.editors(request, &context) == nil, "an admin was refused")
        context.user = User(id: 2, username: "plain")
        #expect(try RouteGuards.readers(request, &context) == nil, "any account is a reader")
    }

    /// A guarded group answers for every route in it, before the handler runs.
    @Test func aGroupGuardsEveryRouteInIt() throws {
        var router = Router<RequestContext>()
        router.group("/desk", requires: RouteGuards.editors) { desk in
            desk.get("") { _, _ in .text("the desk") }
            desk.get("/:id") { _, _ in .text("an article") }
        }
        for target in ["/desk", "/desk/7"] {
            var anonymous = RequestContext()
            let request = Request(method: .get, target: target, headers: HTTPHeaders())
            #expect(try router.dispatch(request, context: &anonymous).status == .seeOther, "\(target)")
            var editor = RequestContext()
            editor.user = User(id: 3, username: "ed", roles: .editor)
            #expect(try router.dispatch(request, context: &editor).status == .ok, "\(target)")
        }
    }
}
