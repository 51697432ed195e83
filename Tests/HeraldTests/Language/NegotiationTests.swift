import Testing

@testable import Herald

/// SPEC third wave, "Language": the reader's choice, then `Accept-Language` by q-values, then
/// `HERALD_LANGUAGE`.
@Suite struct LanguageNegotiationTests {
    @Test func traditionalChineseIsWhatTaiwanHongKongAndMacauAskFor() {
        for header in ["zh-TW", "zh-HK", "zh-MO", "zh-Hant", "zh-Hant-TW", "zh-hant-hk", "ZH-tw"] {
            #expect(AcceptLanguage.preferred(header) == .traditionalChinese, "\(header)")
        }
    }

    @Test func simplifiedChineseIsNotTraditional() {
        for header in ["zh-CN", "zh-Hans", "zh-SG", "zh", "zh-Hans-TW"] {
            #expect(AcceptLanguage.preferred(header) == nil, "\(header)")
        }
        #expect(AcceptLanguage.preferred("zh-CN, zh;q=0.9, en;q=0.5") == .english)
    }

    @Test func englishInAnyRegionIsEnglish() {
        #expect(AcceptLanguage.preferred("en-GB") == .english)
        #expect(AcceptLanguage.preferred("fr-CA, en-US;q=0.3") == .english)
    }

    @Test func qValuesDecideNotTheOrder() {
        #expect(AcceptLanguage.preferred("en-US;q=0.8, zh-TW;q=0.9") == .traditionalChinese)
        #expect(AcceptLanguage.preferred("zh-TW;q=0.5, en") == .english)
        #expect(AcceptLanguage.preferred("zh-TW;q=0, en;q=0.1") == .english, "q=0 refuses")
        #expect(AcceptLanguage.preferred("zh-TW;q=0") == nil)
        // Ties go to the first named.
        #expect(AcceptLanguage.preferred("zh-HK, en") == .traditionalChinese)
        #expect(AcceptLanguage.preferred("en, zh-HK") == .english)
    }

    @Test func malformedItemsAreSkippedNeverAnError() {
        #expect(AcceptLanguage.preferred(nil) == nil)
        #expect(AcceptLanguage.preferred("") == nil)
        #expect(AcceptLanguage.preferred(";;;,,,") == nil)
        #expect(AcceptLanguage.preferred("zh-TW;q=abc, en") == .english)
        #expect(AcceptLanguage.preferred("zh-TW;q=2, en;q=0.1") == .english)
        #expect(AcceptLanguage.preferred("zh TW, en") == .english)
        #expect(AcceptLanguage.preferred("<script>, zh-TW") == .traditionalChinese)
        #expect(AcceptLanguage.preferred(String(repeating: "zh-TW,", count: 400)) == nil, "too long: not read")
    }

    @Test func theReadersChoiceWinsThenTheHeaderThenTheSite() {
        #expect(
            LanguageNegotiation.negotiate(cookie: "zh-Hant", acceptLanguage: "en", site: .english)
                == .traditionalChinese)
        #expect(
            LanguageNegotiation.negotiate(cookie: "en", acceptLanguage: "zh-TW", site: .traditionalChinese) == .english)
        #expect(
            LanguageNegotiation.negotiate(cookie: "klingon", acceptLanguage: "zh-TW", site: .english)
                == .traditionalChinese, "a cookie Herald did not set is ignored")
        #expect(
            LanguageNegotiation.negotiate(cookie: nil, acceptLanguage: "fr", site: .traditionalChinese)
                == .traditionalChinese)
        #expect(LanguageNegotiation.negotiate(cookie: nil, acceptLanguage: nil, site: .english) == .english)
    }

    @Test func theSitesLanguageMapsToAnInterfaceLanguage() {
        #expect(InterfaceLanguage.siteDefault("zh-TW") == .traditionalChinese)
        #expect(InterfaceLanguage.siteDefault("zh-Hant") == .traditionalChinese)
        #expect(InterfaceLanguage.siteDefault("zh-CN") == .english)
        #expect(InterfaceLanguage.siteDefault("fr-CA") == .english)
        #expect(InterfaceLanguage.siteDefault("en") == .english)
    }
}
