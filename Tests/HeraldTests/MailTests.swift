import Foundation
import Testing

@testable import Herald

@Suite struct MailTests {
    static let from = try! MailAddress("news@herald.example")

    // MARK: - Addresses and headers

    @Test(arguments: ["reader@example.org", "a.b+tag@mail.example.co.uk", "ünïcode@exämple.de"])
    func addressesThatAreAccepted(_ text: String) throws {
        #expect(try MailAddress(text).text == text)
    }

    @Test(arguments: [
        "", "reader", "reader@", "@example.org", "a@b@example.org", "reader@localhost", "reader@.example",
        "reader@example.", "reader@example..org", "read er@example.org", "reader@exa\tmple.org",
        "reader\u{0}@example.org", "<reader@example.org>", "a,b@example.org",
        String(repeating: "a", count: 243) + "@example.org",
    ])
    func addressesThatAreRefused(_ text: String) {
        #expect(throws: MailError.self) { try MailAddress(text) }
    }

    @Test func theLongestAddressIs254Bytes() throws {
        let local = String(repeating: "a", count: 254 - "@example.org".count)
        #expect(try MailAddress(local + "@example.org").text.utf8.count == 254)
        #expect(throws: MailError.self) { try MailAddress(local + "a@example.org") }
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func headerInjectionIsRefused(_ lineBreak: String) throws {
        let to = try MailAddress("reader@example.org")
        #expect(throws: MailError.headerInjection(field: "Subject")) {
            try MailMessage(
                from: Self.from, to: to, subject: "Hi\(lineBreak)Bcc: victim@example.org", text: "", html: "")
        }
        #expect(throws: MailError.headerInjection(field: "From")) {
            try MailMessage(
                from: Self.from, fromName: "Herald\(lineBreak)Bcc: victim@example.org", to: to, subject: "Hi",
                text: "", html: "")
        }
        #expect(throws: MailError.headerInjection(field: "address")) {
            try MailAddress("reader@example.org\(lineBreak)Bcc: victim@example.org")
        }
    }

    // MARK: - The message

    @Test func renderedMessageIsCRLFWithShortLines() throws {
        let long =
            String(repeating: "0123456789 ", count: 200) + "https://herald.example/password/reset/"
            + String(repeating: "x", count: 300)
        let message = try MailMessage(
            from: Self.from, to: MailAddress("reader@example.org"),
            subject: "Réinitialisez votre mot de passe sur Herald, s'il vous plaît — merci",
            text: "one\ntwo\r\nthree\rfour\n" + long, html: "<p>\(long)</p>")
        let raw = message.rendered(date: 1_780_000_000, id: "abc")
        let text = String(decoding: raw, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        for line in lines {
            #expect(!line.contains("\n") && !line.contains("\r"), "a bare line break in \(line)")
            #expect(line.utf8.count <= 78, "a line of \(line.utf8.count) bytes")
        }
        #expect(lines.contains("Date: Thu, 28 May 2026 20:26:40 +0000"))
        #expect(lines.contains("Message-ID: <abc@herald.example>"))
        #expect(lines.contains("MIME-Version: 1.0"))
        #expect(lines.contains("Subject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXogdm90cmUgbW90IGRlIHBhc3NlIHN1?="))
        #expect(text.utf8.allSatisfy { $0 < 0x80 }, "every byte is ASCII: headers encoded, bodies quoted-printable")
    }

    @Test func quotedPrintableKeepsDotsAndMarksWhatItMust() {
        let encoded = String(decoding: MailMessage.quotedPrintable(".\n.hidden\na=b \nü"), as: UTF8.self)
        #expect(encoded == ".\r\n.hidden\r\na=3Db=20\r\n=C3=BC")
    }
}

