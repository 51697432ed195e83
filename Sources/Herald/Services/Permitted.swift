/// What a service answers when an operation needs a role: the value, or why the acting account
/// may not have it. Services check the acting account themselves, whoever called them (a route
/// guard, a resumed action, the command line), so a caller that forgot cannot skip the rule.
enum Permitted<Value: Sendable>: Sendable {
    case allowed(Value)
    case notAllowed(String)
}
