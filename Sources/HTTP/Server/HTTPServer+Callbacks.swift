internal import CMicroHTTPD
import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

// libmicrohttpd's callbacks. They are C function pointers, so they capture nothing:
// the server travels as the `cls` pointer, the request as libmicrohttpd's per-request pointer.

/// Called once per request when its request line arrives; its result becomes the per-request pointer.
let requestStarted:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        cls, uri, connection in
        guard let cls else { return nil }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        server.requestsInFlight.add(1, ordering: .relaxed)
        if let headDeadline = server.headDeadline, let socket = HTTPServer.socket(of: connection) {
            headDeadline.requestLineArrived(socket)
        }
        let target = uri.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
        return Unmanaged.passRetained(RequestState(target: target ?? "/")).toOpaque()
    }

/// Called when a request ends, normally or not: releases its state.
let requestCompleted:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_RequestTerminationCode
    ) -> Void = { cls, connection, requestPointer, _ in
        guard let cls else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        if let headDeadline = server.headDeadline, let socket = HTTPServer.socket(of: connection) {
            headDeadline.requestCompleted(socket)
        }
        if let pointer = requestPointer?.pointee {
            let state = Unmanaged<RequestState>.fromOpaque(pointer)
            let finished = state.takeUnretainedValue()
            server.largeBodies.release(finished.reservedBodyBytes, for: finished.reservedBodyClient)
            state.release()
            requestPointer?.pointee = nil
            server.requestsInFlight.subtract(1, ordering: .relaxed)
        }
    }

/// Called on the connection's thread when a connection is accepted, and when it is closed — before
/// libmicrohttpd closes its socket, which is what makes `RequestHeadDeadline`'s shutdowns safe.
let connectionNotified:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_ConnectionNotificationCode
    ) -> Void = { cls, connection, _, code in
        guard let cls else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        guard let headDeadline = server.headDeadline, let socket = HTTPServer.socket(of: connection) else { return }
        switch code {
        case .CONNECTION_NOTIFY_STARTED: headDeadline.connectionOpened(socket)
        case .CONNECTION_NOTIFY_CLOSED: headDeadline.connectionClosed(socket)
        default: break
        }
    }

/// libmicrohttpd's own diagnostics, routed into our log and rate-limited (it can
/// print a line per dropped connection).
let libraryMessage: MHD_LogCallback = {
    cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    server.libraryLog.write("libmicrohttpd: " + message.trimmingTrailingASCIIWhitespace())
}

/// The access handler: called after the headers, then once per body chunk, then once more at the end.
let accessHandler:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?,
        UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result = { cls, connection, _, method, _, uploadData, uploadDataSize, requestPointer in
        guard let cls, let connection, let requestPointer, let uploadDataSize,
            let statePointer = requestPointer.pointee
        else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
        return server.access(
            connection, state: state, method: method, uploadData: uploadData, uploadDataSize: uploadDataSize)
    }

extension HTTPServer {
    fileprivate func access(
        _ connection: OpaquePointer, state: RequestState, method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if !state.headersChecked {
            state.headersChecked = true
            // The head is complete: from here the body deadline and the idle timeout govern.
            if let headDeadline, let socket = Self.socket(of: connection) { headDeadline.headersComplete(socket) }
            state.method = HTTPMethod(method.map { String(cString: $0) } ?? "GET")
            state.headers = Self.headers(of: connection)
            state.remoteAddress = Self.remoteAddress(of: connection)
            state.maxBodyBytes = bodyLimit(for: state)
            if let refusal = RequestFraming.check(state.headers, maxBodyBytes: state.maxBodyBytes) {
                // Answering now means libmicrohttpd never reads the body and closes the connection.
                return respond(connection, state: state, rejection: refusal)
            }
            if let refusal = reserveLargeBody(state) {
                return respond(connection, state: state, rejection: refusal)
            }
            if let length = state.headers["Content-Length"].flatMap({ Int(Substring($0).trimmingASCIIWhitespace()) }) {
                state.body.reserveCapacity(length)
            }
            // Answer on a later call: answering on this first one makes libmicrohttpd drop keep-alive.
            return .YES
        }

        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            let elapsed = monotonicMicroseconds() - state.startedAt
            if elapsed > bodyDeadlineMicroseconds(state) {
                let path = state.target.prefix { $0 != "?" }.prefix(200)
                log.warning("\(state.method) \(loggable(String(path))) cut off: body still arriving after the deadline")
                return .NO
            }
            if state.body.count + chunkSize > state.maxBodyBytes {
                // A chunked body declares no length: keep reading, but keep nothing, then answer 413.
                state.bodyTooLarge = true
                state.body = []
            } else if let uploadData, !state.bodyTooLarge {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: chunkSize) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: chunkSize))
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }

        let rejection = state.bodyTooLarge ? RequestFraming.tooLarge(state.maxBodyBytes) : nil
        return respond(connection, state: state, rejection: rejection)
    }

    /// How long the body may take: the request deadline, plus a second per
    /// `uploadBytesPerExtraSecond` of a large body's reserved size.
    private func bodyDeadlineMicroseconds(_ state: RequestState) -> Int64 {
        let extraSeconds = state.reservedBodyBytes / max(1, configuration.uploadBytesPerExtraSecond)
        return Int64(configuration.requestDeadlineSeconds + extraSeconds) * 1_000_000
    }

    /// A body that may go past the server's own limit reserves its declared length (a chunked one,
    /// its route's whole limit) from the large-body budget, for the client the responder names;
    /// 503, unread, when it does not fit. A request the responder does not admit is held to the
    /// server's own limit instead, like any other route.
    private func reserveLargeBody(_ state: RequestState) -> HTTPError? {
        guard state.maxBodyBytes > configuration.maxBodyBytes else { return nil }
        let declared = state.headers["Content-Length"].flatMap { Int(Substring($0).trimmingASCIIWhitespace()) }
        let bytes = declared ?? state.maxBodyBytes
        guard bytes > configuration.maxBodyBytes else { return nil }
        guard let head = state.head, let client = responder.largeBodyClient(for: head) else {
            state.maxBodyBytes = configuration.maxBodyBytes
            // A chunked body announces no length: it is read up to the server's limit and answered
            // 413 past it, as on any route. A declared length is refused now, unread.
            return declared == nil ? nil : RequestFraming.tooLargeForAStranger(configuration.maxBodyBytes)
        }
        switch largeBodies.reserve(bytes, for: client) {
        case .reserved:
            state.reservedBodyBytes = bytes
            state.reservedBodyClient = client
            return nil
        case .budgetFull:
            libraryLog.write("refused a \(RequestFraming.size(bytes)) body: the large-body budget is in use")
            return Self.busy("The server is busy receiving other large uploads. Please try again in a minute.")
        case .clientShareFull:
            libraryLog.write("refused a \(RequestFraming.size(bytes)) body: its client holds its share of the budget")
            return Self.busy(
                "You are already sending as many large uploads as one client may at once. "
                    + "Please try again when they are done.")
        }
    }

    /// 503 for a body that cannot be taken now; its connection is closed, since the body stays unread.
    private static func busy(_ message: String) -> HTTPError {
        var error = HTTPError.serviceUnavailable(retryAfter: 10, message)
        error.closeConnection = true
        return error
    }

    /// The route's body limit when the request announces a body (a length or a transfer
    /// encoding), else the server's; asked before any byte of the body is read.
    private func bodyLimit(for state: RequestState) -> Int {
        guard state.headers.contains("Content-Length") || state.headers.contains("Transfer-Encoding") else {
            return configuration.maxBodyBytes
        }
        let head = Request(
            method: state.method, target: state.target, headers: state.headers, remoteAddress: state.remoteAddress)
        state.head = head
        return responder.maxBodyBytes(for: head) ?? configuration.maxBodyBytes
    }

    private func respond(_ connection: OpaquePointer, state: RequestState, rejection: HTTPError?) -> MHD_Result {
        if let response = state.deferredResponse {
            // Called again after the worker pool resumed the connection.
            return Self.queue(response, on: connection, log: log)
        }
        var request =
            state.head.map { Request($0, body: state.body, rejection: rejection) }
            ?? Request(
                method: state.method, target: state.target, headers: state.headers, body: state.body,
                remoteAddress: state.remoteAddress, rejection: rejection)
        if let pool = responder.workerPool(for: request) {
            if pool.reserve() {
                answerOnPool(pool, request, state: state, connection: SuspendedConnection(pointer: connection))
                return .YES
            }
            request.rejection = .serviceUnavailable(retryAfter: 2, pool.busyMessage)
        }
        return Self.queue(responder.respond(to: request), on: connection, log: log)
    }

    /// Suspends the connection, answers on the pool, then resumes: libmicrohttpd calls the
    /// access handler once more and the stored response is queued there.
    private func answerOnPool(
        _ pool: WorkerPool, _ request: Request, state: RequestState, connection: SuspendedConnection
    ) {
        MHD_suspend_connection(connection.pointer)
        let responder = self.responder
        pool.run {
            state.deferredResponse = responder.respond(to: request)
            MHD_resume_connection(connection.pointer)
        }
    }

    private static func queue(_ response: Response, on connection: OpaquePointer, log: Logger) -> MHD_Result {
        // The body is lent, not copied: libmicrohttpd sends from the array's own storage and
        // calls `releaseLentBody` once it is done with it (a copy was 4 % of the front page).
        let lent = Unmanaged.passRetained(LentBody(response.body))
        let mhdResponse = lent.takeUnretainedValue().bytes.withUnsafeBytes { body in
            MHD_create_response_from_buffer_with_free_callback_cls(
                body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), releaseLentBody, lent.toOpaque())
        }
        guard let mhdResponse else {
            lent.release()
            return .NO
        }
        defer { MHD_destroy_response(mhdResponse) }
        for (name, value) in response.headers {
            // `withCString` lends the strings' own bytes; passing a String where C wants a pointer
            // would copy each into a new array first (two allocations a header, twenty a page).
            let added = name.withCString { name in
                value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
            }
            guard added == .YES else {
                // Only a header containing CR or LF is refused; never send a half-built response.
                log.error("refused response header \(name) (invalid characters)")
                return .NO
            }
        }
        return MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
    }

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, pointer)
        }
        return headers
    }

    /// The connection's socket; it stays the same from accept to close.
    static func socket(of connection: OpaquePointer?) -> Int32? {
        guard let connection, let info = herald_mhd_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)
        else { return nil }
        return info.pointee.connect_fd
    }

    private static func remoteAddress(of connection: OpaquePointer) -> String {
        guard let info = herald_mhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
            let address = info.pointee.client_addr
        else { return "" }
        return ListeningSocket.numericHost(address)
    }
}

private let collectHeader:
    @convention(c) (
        UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int
    ) -> MHD_Result = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
        let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
        let text =
            value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
        headers.pointee.add(name, text)
        return .YES
    }

/// A response body libmicrohttpd sends from where it is. The retain passed with it keeps the
/// array alive until libmicrohttpd releases it; the array is a `let` no one can mutate, so its
/// storage stays where `withUnsafeBytes` found it.
private final class LentBody {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

private let releaseLentBody: @convention(c) (UnsafeMutableRawPointer?) -> Void = { cls in
    guard let cls else { return }
    Unmanaged<LentBody>.fromOpaque(cls).release()
}

/// A connection handed to a pool thread. libmicrohttpd allows resuming from any thread,
/// and the connection is not touched by its own thread while suspended.
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
