import Foundation
import TestSupport
import Testing

@testable import Herald

/// Pages in the reader's language: `<html lang>`, the headers that say so, the shared page cache
/// keeping one copy per language, and the footer's switcher.
@Suite struct LanguagePagesTests {
    @Test func thePageSaysItsLanguageAndThatItVariesByIt() throws {
        let app = try TestApp(server: false)
        let reader = app.client()
        let chinese = try reader.get("/", headers: [("Accept-Language", "zh-TW,zh;q=0.9,en;q=0.8")])
        #expect(chinese.text.contains("<html lang=\"zh-Hant\">"))
        #expect(chinese.text.contains(">最新</a>"))
        #expect(chinese["Content-Language"] == "zh-Hant")
        let vary = chinese["Vary"] ?? ""
        #expect(vary.contains("Accept-Language") && vary.contains("Accept-Encoding"), "\(vary)")
        let english = try reader.get("/", headers: [("Accept-Language", "en-GB")])
        #expect(english.text.contains("<html lang=\"en\">"))
        #expect(english.text.contains(">Latest</a>"))
        #expect(english["Content-Language"] == "en")
    }

    @Test func theSitesLanguageIsTheDefault() throws {
        let app = try TestApp(server: false) { $0.site.language = "zh-TW" }
        let page = try app.client().get("/")
        #expect(page.text.contains("<html lang=\"zh-Hant\">"))
        #expect(try app.client().get("/", headers: [("Accept-Language", "en")]).text.contains("<html lang=\"en\">"))
    }

    /// SPEC: cached pages vary by language. The same address asked in Chinese and in English is
    /// two pages, each served again from the cache, never the other's.
    @Test func theSharedPageCacheKeepsOneCopyPerLanguage() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        for path in ["/", "/articles/\(slug)"] {
            let start = app.app.pageCache.counts
            let chinese = try app.client().get(path, headers: [("Accept-Language", "zh-TW")])
            let english = try app.client().get(path, headers: [("Accept-Language", "en")])
            let chineseAgain = try app.client().get(path, headers: [("Accept-Language", "zh-HK")])
            let englishAgain = try app.client().get(path, headers: [("Accept-Language", "en-US")])
            let end = app.app.pageCache.counts
            #expect(end.misses - start.misses == 2, "\(path): one rendering per language")
            #expect(end.hits - start.hits == 2, "\(path): each served again from the cache")
            for page in [chinese, chineseAgain] {
                #expect(page.text.contains("<html lang=\"zh-Hant\">") && page.text.contains("搜尋"), "\(path)")
                #expect(!page.text.contains(">Search</label>"), "\(path)")
            }
            for page in [english, englishAgain] {
                #expect(page.text.contains("<html lang=\"en\">") && page.text.contains(">Search</label>"), "\(path)")
                #expect(!page.text.contains("搜尋"), "\(path)")
            }
        }
    }

    @Test func theSwitcherWorksWithoutScriptAndIsRemembered() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let article = try reader.get("/articles/\(slug)", headers: [("Accept-Language", "en")])
        #expect(article.text.contains("<button type=\"submit\" name=\"lang\" value=\"zh-Hant\" lang=\"zh-Hant\""))
        #expect(article.text.contains(">繁體中文</button>") && article.text.contains(">English</button>"))
        let action = try #require(firstMatch(#"<form method="post" action="(/language[^"]*)""#, in: article.text))
        #expect(action == "/language?next=%2Farticles%2F\(slug)" || action.hasPrefix("/language?next="))
        // No form token: the switcher is the one form of many pages, and choosing a language needs none.
        let switched = try reader.post(
            action.replacingOccurrences(of: "&amp;", with: "&"), form: [("lang", "zh-Hant")],
            headers: [("Accept-Language", "en")])
        #expect(switched.status == 303)
        #expect(switched["Location"] == "/articles/\(slug)")
        #expect(switched["Set-Cookie"]?.contains("herald_lang=zh-Hant") == true)
        #expect(switched["Set-Cookie"]?.contains("Max-Age=31536000") == true)
        // The choice beats what the browser asks for, from now on.
        let after = try reader.get("/articles/\(slug)", headers: [("Accept-Language", "en")])
        #expect(after.text.contains("<html lang=\"zh-Hant\">"))
        #expect(after.text.contains("♡ 按讚"))
    }

    /// The footer's switcher puts no form token on a page: the anonymous front page is one copy for
    /// everyone and mints no cookie, in either language.
    @Test func theSwitcherPutsNoTokenOnTheAnonymousFrontPage() throws {
        let app = try TestApp(server: false)
        for language in ["en", "zh-TW"] {
            let front = try app.client().get("/", headers: [("Accept-Language", language)])
            #expect(front.status == 200)
            #expect(!front.text.contains("csrf_token"), "\(language): no token on the front page")
            #expect(front["Set-Cookie"] == nil, "\(language): no cookie for a first visit")
        }
    }

    @Test func anUnknownLanguageIsAClear400() throws {
        let app = try TestApp(server: false)
        let reader = app.client()
        let token = try reader.formToken(on: "/login")
        let refused = try reader.post("/language", form: [("csrf_token", token), ("lang", "klingon")])
        #expect(refused.status == 400)
        #expect(refused.text.contains("English"))
        // A back address elsewhere is not followed.
        let elsewhere = try reader.post(
            "/language", form: [("csrf_token", token), ("lang", "en"), ("back", "https://evil.example/")])
        #expect(elsewhere["Location"] == "/")
        // And a cross-site POST is refused like any other.
        let forged = try app.client().post(
            "/language", form: [("lang", "en")], headers: [("Origin", "https://evil.example")])
        #expect(forged.status == 403)
    }

    @Test func aLoggedInReadersChoiceIsKeptOnTheirAccount() throws {
        let app = try TestApp(server: false)
        let reader = app.client()
        _ = try reader.register("polyglot")
        let token = try reader.formToken(on: "/account")
        _ = try reader.post("/language", form: [("csrf_token", token), ("lang", "zh-Hant")])
        let user = try #require(try app.app.accounts.store.credentials(username: "polyglot")?.user)
        #expect(user.language == "zh-Hant")
        // Registering in Chinese keeps Chinese.
        let newcomer = app.client()
        newcomer.defaultHeaders = [("Accept-Language", "zh-TW")]
        _ = try newcomer.register("newcomer")
        #expect(try app.app.accounts.store.credentials(username: "newcomer")?.user.language == "zh-Hant")
    }

    @Test func datesAreWrittenTheWayEachLanguageWritesThem() {
        let first = 1_796_111_720  // 2026-12-01T07:55:20Z
        #expect(DateText.long(first, in: .traditionalChinese) == "2026年12月1日")
        #expect(DateText.dayAndTime(first, in: .traditionalChinese) == "2026年12月1日 07:55")
        #expect(DateText.long(first, in: .english) == "1 December 2026")
        #expect(DateText.relative(first, now: first + 10, in: .traditionalChinese) == "剛剛")
        #expect(DateText.relative(first, now: first + 300, in: .traditionalChinese) == "5 分鐘前")
        #expect(DateText.relative(first, now: first + 3 * 3600, in: .traditionalChinese) == "3 小時前")
        #expect(DateText.relative(first, now: first + 86_400 + 5, in: .traditionalChinese) == "昨天")
        #expect(DateText.relative(first, now: first + 4 * 86_400, in: .traditionalChinese) == "4 天前")
        #expect(DateText.relative(first, now: first + 40 * 86_400, in: .traditionalChinese) == "2026年12月1日")
        #expect(DateText.relative(first, now: first + 3 * 3600, in: .english) == "3 hours ago")
        #expect(DateText.rfc3339(first) == "2026-12-01T07:55:20Z")
    }

    /// An article's own language, from its feed, is its element's `lang`, whatever the interface's.
    @Test func anArticleCarriesItsFeedsLanguage() throws {
        let rss = """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>港口</title><language>zh-TW</language>
            <item><guid>ferry-1</guid><title>渡輪班次延長至午夜</title><description>渡輪班次延長。</description>
            <pubDate>Tue, 01 Dec 2026 07:42:00 GMT</pubDate></item>
            <item><guid>ferry-2</guid><title>Ferries run late</title><description>In English.</description>
            <pubDate>Tue, 01 Dec 2026 06:42:00 GMT</pubDate><dc:language xmlns:dc="http://purl.org/dc/elements/1.1/">en-GB</dc:language></item>
            </channel></rss>
            """
        let incoming = try FeedParser.parse(Array(rss.utf8), name: "harbour.xml")
        #expect(incoming.map(\.language) == ["zh-TW", "en-GB"])
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "language": "zh-Hant", "items": [
              {"id": "1", "title": "一", "content_text": "一。", "date_published": "2026-12-01T07:42:00Z"},
              {"id": "2", "title": "Two", "content_text": "Two.", "date_published": "2026-12-01T07:42:00Z",
               "language": "en"},
              {"id": "3", "title": "Three", "content_text": "Three.", "date_published": "2026-12-01T07:42:00Z",
               "language": "not a tag!"}]}
            """
        #expect(try FeedParser.parse(Array(json.utf8), name: "f.json").map(\.language) == ["zh-Hant", "en", nil])

        let app = try TestApp(server: false, demo: false)
        _ = try app.app.articles.importArticles(incoming, now: 1_796_111_720)
        let chinese = try #require(try app.app.articles.page(1, size: 10).articles.first { $0.language == "zh-TW" })
        let english = try app.client().get("/articles/\(chinese.slug)", headers: [("Accept-Language", "en")])
        #expect(english.text.contains("<html lang=\"en\">"))
        #expect(english.text.contains("<article class=\"article\" lang=\"zh-TW\">"))
        let front = try app.client().get("/", headers: [("Accept-Language", "zh-TW")])
        #expect(front.text.contains("<article lang=\"en-GB\">") && front.text.contains("<article lang=\"zh-TW\">"))
    }

    /// An editor names the article's language: the site's, English, 繁體中文, or any BCP 47 tag.
    @Test func anEditorSetsAnArticlesLanguage() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let page = try editor.get("/editor/articles/new")
        #expect(page.text.contains("<option value=\"zh-Hant\" lang=\"zh-Hant\">繁體中文</option>"))
        #expect(page.text.contains("<option value=\"\" selected>Same as the site</option>"))
        let form = ArticleForm(title: "渡輪班次延長至午夜", action: "publish")
        let token = try editor.formToken(on: "/editor/articles/new")
        let created = try editor.post(
            "/editor/articles",
            form: [("csrf_token", token)] + form.fields + [("language", "zh-Hant"), ("language_other", "")])
        #expect(created.status == 303)
        let id = try #require(editedArticleID(created["Location"]))
        let slug = try editor.articleSlug(id)
        let read = try app.client().get("/articles/\(slug)", headers: [("Accept-Language", "en")])
        #expect(read.text.contains("<article class=\"article\" lang=\"zh-Hant\">"))

        let editToken = try editor.formToken(on: "/editor/articles/\(id)")
        let refused = try editor.post(
            "/editor/articles/\(id)",
            form: [("csrf_token", editToken)] + form.fields + [("language", "other"), ("language_other", "not a tag!")])
        #expect(refused.status != 303)
        #expect(refused.text.contains("Write a language tag such as en, zh-Hant"))
        let saved = try editor.post(
            "/editor/articles/\(id)",
            form: [("csrf_token", editToken)] + form.fields + [("language", "other"), ("language_other", "fr-CA")])
        #expect(saved.status == 303)
        #expect(try app.client().get("/articles/\(slug)").text.contains("<article class=\"article\" lang=\"fr-CA\">"))
        let again = try editor.get("/editor/articles/\(id)")
        #expect(again.text.contains("<option value=\"other\" selected>"))
        #expect(again.text.contains("name=\"language_other\" value=\"fr-CA\""))
    }

    /// Messages raised in English by code that knows no language are shown in the reader's when
    /// the catalog has their English text; the wait of a 429 is written in it.
    @Test func englishMessagesFromServicesAreShownInTheReadersLanguage() throws {
        let catalogs = try TestApp(server: false, demo: false).app.catalogs
        let chinese = catalogs[.traditionalChinese]
        #expect(chinese.translated("Please log in first.") == "請先登入。")
        #expect(chinese.translated("Not a message Herald has.") == "Not a message Herald has.")
        #expect(catalogs[.english].translated("Please log in first.") == "Please log in first.")
        // A message with values in it: the English text's pattern, the values carried over.
        #expect(
            chinese.translated("Your comment is 2345 characters long; the limit is 2000. Please shorten it.")
                == "你的留言有 2345 個字，上限是 2000 字，請刪減後再送出。")
        #expect(chinese.translated("The title is 201 characters; at most 200.") == "標題有 201 個字，上限是 200 字。")
        #expect(chinese.translated("The title is long") == "The title is long", "a title that starts alike")
        let refusal = AccountsController.throttled(
            120, "Too many failed logins for this account or from your network.", chinese)
        #expect(refusal.message == "這個帳號或你的網路登入失敗太多次了。請 2 分鐘後再試。")
        let english = AccountsController.throttled(
            30, "Too many failed logins for this account or from your network.", catalogs[.english])
        #expect(
            english.message
                == "Too many failed logins for this account or from your network. Please try again in a minute.")
    }

    /// A too-long comment from a reader who reads Chinese: the 422 says how long, in Chinese, and
    /// the text comes back.
    @Test func aTooLongCommentIsRefusedInTheReadersLanguage() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        reader.defaultHeaders = [("Accept-Language", "zh-TW")]
        _ = try reader.register("wordy")
        let text = String(repeating: "字", count: 2_001)
        let token = try reader.formToken(on: "/articles/\(slug)")
        let refused = try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        #expect(refused.status == 422)
        #expect(refused.text.contains("你的留言有 2001 個字，上限是 2000 字"))
        #expect(refused.text.contains(text), "the text comes back")
    }

    /// The footer's switcher on a page whose own model has a list of languages too (the editor's
    /// article-language select): each keeps its own (axe found the switcher's buttons empty there).
    @Test func theSwitcherKeepsItsButtonsOnTheEditorsPage() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let page = try editor.get("/editor/articles/new").text
        #expect(page.contains("lang=\"zh-Hant\" class=\"link-button\">繁體中文</button>"))
        #expect(page.contains("lang=\"en\" class=\"link-button\">English</button>"))
        #expect(!page.contains("lang=\"\" class=\"link-button\">"))
    }

    /// What the page's script writes after a like or a comment in place is in the page's language.
    @Test func theScriptsWordsComeWithThePageInItsLanguage() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let chinese = try app.client().get("/articles/\(slug)", headers: [("Accept-Language", "zh-TW")]).text
        #expect(chinese.contains("data-word-liked=\"♥ 已按讚 — 收回讚\""))
        #expect(chinese.contains("data-word-comment-posted=\"留言已送出。\""))
        let english = try app.client().get("/articles/\(slug)", headers: [("Accept-Language", "en")]).text
        #expect(english.contains("data-word-liked=\"♥ Liked — Unlike\""))
        let editor = try app.editor().get("/editor/articles/new", headers: [("Accept-Language", "zh-TW")]).text
        #expect(editor.contains("data-word-image-inserted=\"圖片已插入內文"))
    }
}
