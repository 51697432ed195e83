import HTTP

/// `POST /language`: the footer's switcher (no script needed). Keeps the reader's choice in the
/// `herald_lang` cookie for a year (and on their account when logged in, for mail sent later),
/// then 303 back to the page it was pressed on: `back` in the form, else `next` in the query (the
/// form's action carries the page's own address, the way Log in does), else the front page.
struct LanguageController: Sendable {
    static let path = "/language"

    static let cookieSeconds = 365 * 24 * 3600
    let accounts: Accounts

    func addRoutes(to router: inout Router<RequestContext>) {
        router.post(Self.path) { request, context in
            let form = try request.form()
            guard let language = form["lang"].flatMap(InterfaceLanguage.init(rawValue:)) else {
                throw HTTPError(.badRequest, context.text("error_language_unknown"))
            }
            let back = NextPath.validated(form["back"]) ?? NextPath.validated(request.query["next"]) ?? "/"
            if let user = context.user {
                try accounts.setLanguage(language.rawValue, of: user.id)
            }
            var response = Response.redirect(to: back)
            response.setCookie(
                .herald(.language, language.rawValue, maxAge: Self.cookieSeconds, secure: context.isSecure))
            return response
        }
    }
}
