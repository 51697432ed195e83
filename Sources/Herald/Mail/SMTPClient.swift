internal import CCurl

/// The SMTP server from `HERALD_SMTP_URL`: `smtps://…` (TLS from the first byte) or
/// `smtp://[user:password@]host[:port]`, which must upgrade with STARTTLS whenever the URL carries
/// credentials or the host is not loopback — an attacker on the path could otherwise strip the
/// STARTTLS offer and read the password and the reset links. Only a loopback relay without
/// credentials (a local MTA) is spoken to in clear text. The credentials are taken out of the URL
/// and kept apart, so `url` and `description` are safe to log.
public struct SMTPServer: Sendable, CustomStringConvertible {
    /// The URL without user name or password.
    public let url: String
    /// `smtps://`: TLS from the start.
    public let implicitTLS: Bool
    /// `smtp://` that must be upgraded with STARTTLS before anything is sent (else nothing is).
    public let requiresSTARTTLS: Bool
    let username: String?
    let password: String?

    public init(url text: String) throws(MailError) {
        guard text.hasPrefix("smtp://") || text.hasPrefix("smtps://") else {
            throw .invalidServerURL(reason: "must start with smtp:// or smtps://")
        }
        guard SMTPClient.globalInit else { throw .invalidServerURL(reason: "libcurl could not be initialised") }
        guard let handle = curl_url() else { throw .invalidServerURL(reason: "out of memory") }
        defer { curl_url_cleanup(handle) }
        // Errors name the rule, never echo the text: it may hold a password.
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK else {
            throw .invalidServerURL(reason: "not a valid smtp://[user:password@]host[:port] URL")
        }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let host = part(CURLUPART_HOST), !host.isEmpty else {
            throw .invalidServerURL(reason: "needs a host name")
        }
        username = part(CURLUPART_USER, UInt32(CURLU_URLDECODE))
        password = part(CURLUPART_PASSWORD, UInt32(CURLU_URLDECODE))
        guard curl_url_set(handle, CURLUPART_USER, nil, 0) == CURLUE_OK,
            curl_url_set(handle, CURLUPART_PASSWORD, nil, 0) == CURLUE_OK,
            let bare = part(CURLUPART_URL)
        else { throw .invalidServerURL(reason: "not a valid smtp://[user:password@]host[:port] URL") }
        url = bare
        implicitTLS = text.hasPrefix("smtps://")
        requiresSTARTTLS = !implicitTLS && (username != nil || password != nil || !LoopbackHost.contains(host))
    }

    public var description: String { url + (username == nil ? "" : " (with credentials)") }
}

/// Why libcurl could not deliver a message: its result code and its words (which never contain
/// the password: it is not in the URL, and any echo of it is masked).
public struct SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int
    public let message: String

    public var description: String { "\(message) (curl \(code))" }
}

/// Sends one message with libcurl's SMTP. Blocking; call it from a background thread (`Mailer`).
/// The only file that sees libcurl.
enum SMTPClient {
    /// `curl_global_init` once per process, before any other libcurl call (a global `let` is
    /// initialised once, thread-safely).
    static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// Delivers `message` (RFC 5322 bytes with CRLF line endings) from `from` to `to`. The server's
    /// certificate is checked against the system's authorities, or the PEM file
    /// `certificateAuthorities` names.
    static func send(
        _ message: [UInt8], from: MailAddress, to: MailAddress, server: SMTPServer,
        connectTimeout: Duration, timeout: Duration, certificateAuthorities: String? = nil
    ) -> Result<Void, SMTPError> {
        guard globalInit else { return .failure(SMTPError(code: -1, message: "libcurl could not be initialised")) }
        guard let handle = curl_easy_init() else {
            return .failure(SMTPError(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_easy_init failed"))
        }
        defer { curl_easy_cleanup(handle) }

        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        // curl_slist_append copies the string; the list is freed after the transfer.
        guard let recipients = curl_slist_append(nil, "<\(to.text)>") else {
            return .failure(SMTPError(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory"))
        }
        defer { curl_slist_free_all(recipients) }
        let upload = Upload(message)

        // Every string option is copied by libcurl, so Swift's temporary C strings suffice.
        var setupFailure = CURLE_OK
        func check(_ result: CURLcode) { if setupFailure == CURLE_OK { setupFailure = result } }
        check(herald_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        check(herald_curl_setopt_string(handle, CURLOPT_URL, server.url))
        check(herald_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"))
        if let username = server.username { check(herald_curl_setopt_string(handle, CURLOPT_USERNAME, username)) }
        if let password = server.password { check(herald_curl_setopt_string(handle, CURLOPT_PASSWORD, password)) }
        if !server.implicitTLS {
            // STARTTLS or nothing (libcurl stops after EHLO, before AUTH, when it is not offered);
            // a loopback relay without credentials in clear text, certificate or not.
            let level = server.requiresSTARTTLS ? CURLUSESSL_ALL : CURLUSESSL_NONE
            check(herald_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(level.rawValue)))
        }
        if let authorities = certificateAuthorities {
            check(herald_curl_setopt_string(handle, CURLOPT_CAINFO, authorities))
        }
        check(herald_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(from.text)>"))
        check(herald_curl_setopt_list(handle, CURLOPT_MAIL_RCPT, recipients))
        check(herald_curl_setopt_long(handle, CURLOPT_UPLOAD, 1))
        check(herald_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(connectTimeout)))
        check(herald_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(timeout)))
        // Threads: no SIGALRM for DNS timeouts, which would hit whatever thread the kernel picks.
        // (libcurl then leaves SIGPIPE alone too; `herald serve` ignores it process-wide, Signals.prepare.)
        check(herald_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        check(
            herald_curl_setopt_read_function(handle) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
                // The Upload is alive: `send` holds it until curl_easy_perform has returned.
                let upload = Unmanaged<Upload>.fromOpaque(userdata).takeUnretainedValue()
                return upload.read(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
            })
        guard setupFailure == CURLE_OK else { return .failure(error(setupFailure, errorBuffer, server)) }

        let result = withExtendedLifetime(upload) {
            let userdata = Unmanaged.passUnretained(upload).toOpaque()
            let set = herald_curl_setopt_pointer(handle, CURLOPT_READDATA, userdata)
            guard set == CURLE_OK else { return set }
            return curl_easy_perform(handle)
        }
        guard result == CURLE_OK else { return .failure(error(result, errorBuffer, server)) }
        return .success(())
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static func error(_ code: CURLcode, _ buffer: UnsafeMutablePointer<CChar>, _ server: SMTPServer)
        -> SMTPError
    {
        var message = String(cString: buffer)
        if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
        if code == CURLE_USE_SSL_FAILED {
            message =
                "the server does not offer STARTTLS, which \(server.url) needs (the URL has credentials or the "
                + "host is not loopback): nothing was sent (\(message))"
        }
        if let password = server.password, !password.isEmpty { message = message.replacing(password, with: "***") }
        return SMTPError(code: Int(code.rawValue), message: message)
    }
}

/// The message being uploaded and how much of it libcurl has read. Lives on the sending thread
/// for one `curl_easy_perform`; the read callback reaches it through CURLOPT_READDATA.
private final class Upload {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies the next at most `capacity` bytes; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            buffer.copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
