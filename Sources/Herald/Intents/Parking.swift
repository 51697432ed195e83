import HTTP

/// Where a captured form goes when the intent cookie cannot hold it (SPEC third wave, "Parking"):
/// anonymous text up to `anonymousFormBytes`, counted per client address; files and larger forms
/// only for a browser whose session belonged, within the last day, to an account allowed to
/// perform the action (an editor whose session expired mid-edit), counted per account. Each parked
/// form records the browser that parked it, and only that browser's login takes it.
struct Parking: Sendable {
    enum Outcome: Sendable, Equatable {
        case parked(id: String)
        /// Not parked; why, for the log.
        case refused(String)
    }

    let store: ParkedFormStore
    let accounts: Accounts
    let limits: ParkingLimits
    let clock: Clock

    func park(
        _ form: KeptForm, for action: AnyResumableAction, browser: String, replacing previous: String?,
        _ request: Request, _ context: RequestContext
    ) throws -> Outcome {
        let parked = ParkedForm(fields: form.fields, file: form.file)
        let owner: String
        let bounds: ParkedFormStore.Bounds
        if form.file == nil && parked.size <= limits.anonymousFormBytes {
            owner = "address:" + ClientAddressKey.key(for: context.clientAddress)
            bounds = .init(
                pool: "address", formsPerOwner: limits.formsPerAddress, bytesPerOwner: limits.anonymousBytes,
                poolBytes: limits.anonymousBytes)
        } else {
            guard let token = request.cookie(.session, secure: context.isSecure),
                let account = try accounts.recentSessionOwner(token)
            else { return .refused("a file or a large form from a browser with no recent session") }
            if let requirement = action.role, !requirement.isMet(by: account) {
                return .refused("a file or a large form for an action its account may not perform")
            }
            owner = "account:\(account.id)"
            bounds = .init(
                pool: "account", formsPerOwner: limits.formsPerAccount, bytesPerOwner: limits.bytesPerAccount,
                poolBytes: limits.accountBytes)
        }
        let now = clock.now()
        switch try store.park(
            parked, owner: owner, browser: browser, replacing: previous, expiresAt: now + limits.lifetimeSeconds,
            now: now, bounds: bounds)
        {
        case .parked(let id): return .parked(id: id)
        case .full: return .refused("\(bounds.pool) parking is full for this \(bounds.pool)")
        }
    }

    func take(_ id: String, browser: String, now: Int) throws -> ParkedForm? {
        try store.take(id, browser: browser, now: now)
    }

    func peek(_ id: String, browser: String, now: Int) throws -> ParkedForm? {
        try store.peek(id, browser: browser, now: now)
    }

    func discard(_ id: String) throws {
        try store.discard(id)
    }
}
