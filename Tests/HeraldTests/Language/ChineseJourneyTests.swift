import Foundation
import TestSupport
import Testing

@testable import Herald

/// Issue #33's "done when": a reader whose browser asks for `zh-TW` meets the whole journey in
/// Traditional Chinese, on the real server with a real SMTP server (aiosmtpd) — front page,
/// article, anonymous like, the login page naming the pending like, registration, the flash
/// after it, a comment, and the password-reset mail.
@Suite struct ChineseJourneyTests {
    @Test func aReaderAskingForZhTWMeetsTheWholeJourneyInTraditionalChinese() throws {
        let sink = try SMTPSink()
        let app = try TestApp {
            $0.smtpURL = sink.url
            $0.mailFrom = "Herald <news@herald.test>"
            $0.baseURL = "http://news.herald.test"
        }
        let slug = try app.firstSlug()
        let title = try #require(try app.app.articles.page(1, size: 1).articles.first?.title)
        let reader = app.client()
        reader.defaultHeaders = [("Accept-Language", "zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7")]

        let front = try reader.get("/")
        #expect(front["Content-Language"] == "zh-Hant")
        #expect(front.text.contains("<html lang=\"zh-Hant\">"))
        #expect(front.text.contains("<h1 class=\"page-heading\">最新新聞</h1>"))
        #expect(front.text.contains(">登入</a>") && front.text.contains(">註冊</a>"))
        #expect(front.text.contains("年") && front.text.contains("月"), "dates in Chinese")

        let article = try reader.get("/articles/\(slug)")
        #expect(article.text.contains("♡ 按讚"))
        #expect(article.text.contains("留言（0）"))
        #expect(article.text.contains("送出留言"))
        #expect(article.text.contains("閱讀時間約"))

        // The anonymous like waits for a login, and the login page names it in Chinese.
        let like = try reader.submitLikeForm(slug)
        #expect(like["Location"] == "/login")
        let login = try reader.get("/login")
        #expect(login.text.contains("登入後，就會為「"), "the pending like, named")
        #expect(login.text.contains("」按讚。"))
        #expect(login.text.contains("取消按讚"))
        let register = try reader.get("/register")
        #expect(register.text.contains("建立帳號後，就會為「"))

        // Registration performs the like, and the flash after it is in Chinese.
        let token = try #require(hiddenField("csrf_token", in: register.text))
        let registered = try reader.post(
            "/register",
            form: [
                ("csrf_token", token), ("username", "taipei_reader"), ("password", "a-long-pass-phrase"),
                ("email", "reader@example.tw"),
            ])
        #expect(registered.status == 303)
        #expect(registered["Location"] == "/articles/\(slug)#like")
        let liked = try reader.get("/articles/\(slug)")
        #expect(liked.text.contains("你為「"), "the flash after registration")
        #expect(liked.text.contains("」按了讚。"))
        #expect(liked.text.contains("♥ 已按讚 — 收回讚"))
        #expect(liked.text.contains("登入身分："))

        // A comment, and what it says after.
        let commentToken = try #require(hiddenField("csrf_token", in: liked.text))
        let posted = try reader.post(
            "/articles/\(slug)/comments", form: [("csrf_token", commentToken), ("body", "渡輪班次延長到午夜，太好了。")])
        #expect(posted.status == 303)
        let landing = try #require(posted["Location"]?.split(separator: "#").first.map(String.init))
        let withComment = try reader.get(landing)
        #expect(withComment.text.contains("的留言已發表。"))
        #expect(withComment.text.contains("留言（1）"))
        #expect(withComment.text.contains("剛剛"), "a relative time in Chinese")
        #expect(withComment.text.contains("渡輪班次延長到午夜，太好了。"))
        // An error a script reads, in Chinese, its key unchanged.
        let empty = try reader.post(
            "/articles/\(slug)/comments", form: [("csrf_token", commentToken), ("body", "   ")],
            headers: [("Accept", "application/json")])
        #expect(empty.status == 422)
        #expect(empty.text.contains("\"error\""))
        #expect(empty.text.contains("留言是空的"))

        // The password-reset mail, asked for in Chinese, is written in Chinese.
        let forgetful = app.client()
        forgetful.defaultHeaders = reader.defaultHeaders
        let forgotToken = try forgetful.formToken(on: "/password/forgot")
        let asked = try forgetful.post(
            "/password/forgot", form: [("csrf_token", forgotToken), ("email", "reader@example.tw")])
        #expect(asked.status == 303)
        #expect(try forgetful.follow(asked).text.contains("如果有帳號使用這個地址，連結已經寄出。"))
        let mail = try #require(try sink.messages(1).first)
        #expect(mail.subject == "重設你在Herald的密碼")
        let text = try #require(mail.part("text/plain"))
        #expect(text.contains("taipei_reader 你好："))
        #expect(text.contains("請在一小時內開啟這個連結"))
        #expect(text.contains("http://news.herald.test/password/reset/"))
        #expect(mail.part("text/html")?.contains(">設定新密碼</a>") == true)
        #expect(mail.defects.isEmpty)

        // The English reader of the same pages still gets English.
        let english = app.client()
        #expect(try english.get("/articles/\(slug)", headers: [("Accept-Language", "en")]).text.contains("♡ Like"))
        _ = title
    }
}
