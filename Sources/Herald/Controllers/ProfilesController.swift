import HTTP
import Mustache

/// `GET /users/{name}`: a reader's public profile.
struct ProfilesController: Sendable {
    let profiles: Profiles
    let views: Views

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/users/:name") { request, context in try profile(request, context) }
    }

    func profile(_ request: Request, _ context: RequestContext) throws -> Response {
        let name = request.parameters["name"] ?? ""
        let number = try ArticlesController.pageNumber(request.query["page"])
        switch try profiles.profile(of: name, page: number) {
        case .profile(let username, let joined, let comments, let hasOlder):
            let page = ProfilePage(
                username: username, joined: joined, comments: comments, page: number, hasOlder: hasOlder)
            return try views.page(page, title: username, context: context)
        case .noSuchUser:
            throw HTTPError(.notFound, "There is no reader called that here.")
        case .pastTheLast:
            throw HTTPError(.notFound, "There is no page \(number) of this reader's comments.")
        }
    }
}
