import Testing

@testable import Herald

/// The ban's rules, asked of the service and the one predicate that decides whether a ban holds.
@Suite struct BanRulesTests {
    @Test func aBanHoldsUntilItsEndAndAPermanentOneAlways() {
        let user = User(id: 1, username: "u", ban: User.Ban(until: 1_000))
        #expect(user.isBanned(at: 999))
        #expect(!user.isBanned(at: 1_000), "at its end it is lifted")
        #expect(User(id: 1, username: "u", ban: User.Ban(until: nil)).isBanned(at: Int.max))
        #expect(!User(id: 1, username: "u").isBanned(at: 0))
    }

    @Test func aModeratorsBanNeedsAReasonAndTheCommandLinesDoesNot() throws {
        let fixture = try ServiceFixture()
        let moderator = try fixture.account("mod", .moderator)
        _ = try fixture.account("troll")
        let moderation = fixture.moderation
        #expect(
            try moderation.setBanned(
                "troll", banned: true, for: .oneDay, hideComments: false, note: " ", by: .moderator(moderator))
                == .reasonRequired)
        let now = fixture.clock.clock.now()
        #expect(
            try moderation.setBanned(
                "troll", banned: true, for: .oneDay, hideComments: false, note: "rude", by: .moderator(moderator))
                == .banned(hiddenComments: 0, until: now + 86_400))
        #expect(
            try moderation.setBanned(
                "troll", banned: true, for: .oneDay, hideComments: false, note: "rude", by: .moderator(moderator))
                == .unchanged, "the same ban again changes nothing")
        #expect(
            try moderation.setBanned("troll", banned: true, hideComments: false, note: "", by: .commandLine)
                == .banned(hiddenComments: 0, until: nil), "a longer ban replaces it")
        fixture.clock.advance(86_400)
        #expect(
            try moderation.setBanned("troll", banned: false, hideComments: false, note: "", by: .commandLine)
                == .unbanned)
    }

    @Test func anUnbanOfABanThatRanOutChangesNothing() throws {
        let fixture = try ServiceFixture()
        let moderator = try fixture.account("mod", .moderator)
        _ = try fixture.account("brief")
        let moderation = fixture.moderation
        _ = try moderation.setBanned(
            "brief", banned: true, for: .oneDay, hideComments: false, note: "cool off", by: .moderator(moderator))
        fixture.clock.advance(86_400)
        #expect(
            try moderation.setBanned("brief", banned: false, hideComments: false, note: "", by: .moderator(moderator))
                == .unchanged)
    }

    @Test func anImageGoesInAsAParagraphAtTheCursorOrTheEnd() {
        let image = BodyImageInsertion.markdown(alt: "a [b] \\ c", path: "/media/x.png")
        #expect(image == "![a \\[b\\] \\\\ c](/media/x.png)")
        #expect(BodyImageInsertion.insert("I", into: "one\r\n\r\ntwo", at: nil) == "one\n\ntwo\n\nI")
        #expect(BodyImageInsertion.insert("I", into: "one\n\ntwo", at: 3) == "one\n\nI\n\ntwo")
        #expect(BodyImageInsertion.insert("I", into: "one\n\ntwo", at: 0) == "I\n\none\n\ntwo")
        #expect(BodyImageInsertion.insert("I", into: "", at: 0) == "I")
        // Inside a character (the middle of an emoji's UTF-16 pair), or past the end: at the end.
        #expect(BodyImageInsertion.insert("I", into: "a😀b", at: 2) == "a😀b\n\nI")
        #expect(BodyImageInsertion.insert("I", into: "ab", at: 99) == "ab\n\nI")
        #expect(BodyImageInsertion.insert("I", into: "ab", at: -1) == "ab\n\nI")
    }
}
