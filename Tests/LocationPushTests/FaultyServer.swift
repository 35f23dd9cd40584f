import NIOCore
import NIOHTTP1
import NIOPosix
import ThreadSharing

/// A real HTTP/1.1 server on loopback for the push tests: it records every request and answers
/// each as a fault plan says (200, an error status with or without `Retry-After`, a slow answer,
/// a dropped connection). Keep-alive as NIO's server pipeline does it.
final class FaultyServer: Sendable {
    enum Fault: Sendable {
        case ok
        case status(Int, retryAfter: String?)
        /// Answer 200 after this many seconds.
        case slow(Double)
        /// Close the connection without answering.
        case drop
        /// Answer with a redirect status and this `Location`.
        case redirect(Int, location: String)
    }

    struct Request: Sendable {
        var path: String
        var method: String
        var apiKey: String?
        var contentType: String?
        var body: [UInt8]
        var answered: Int?  // the status sent, nil when dropped
        var connection: ObjectIdentifier
    }

    let expectedKey: String
    private let plan: @Sendable (Int) -> Fault
    // pthread locks, which the thread sanitizer sees (ThreadSharing), not Synchronization.Mutex
    private let requests = Monitor<[Request]>([])
    private let channel: Monitor<Channel?> = Monitor(nil)
    private let connections = Monitor<Set<ObjectIdentifier>>([])

    /// - Parameters:
    ///   - expectedKey: requests with another `X-API-Key` get 401.
    ///   - plan: the fault for request number n (from 0).
    init(expectedKey: String, plan: @escaping @Sendable (Int) -> Fault) {
        self.expectedKey = expectedKey
        self.plan = plan
    }

    /// Starts listening on a free port of 127.0.0.1.
    func start() throws -> Int {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(server: self))
                }
            }
        let ch = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        channel.withLock { $0 = ch }
        return ch.localAddress!.port!
    }

    func stop() {
        let ch = channel.withLock { $0 }
        try? ch?.close().wait()
    }

    var recorded: [Request] { requests.withLock { $0 } }
    var connectionCount: Int { connections.withLock { $0.count } }

    /// Records a request and says how to answer it.
    fileprivate func arrived(_ request: Request) -> Fault {
        connections.withLock { _ = $0.insert(request.connection) }
        let n = requests.withLock { r -> Int in
            r.append(request)
            return r.count - 1
        }
        if request.apiKey != expectedKey {
            setAnswer(n, 401)
            return .status(401, retryAfter: nil)
        }
        let fault = plan(n)
        switch fault {
        case .ok, .slow: setAnswer(n, 200)
        case .status(let s, _), .redirect(let s, _): setAnswer(n, s)
        case .drop: break
        }
        return fault
    }

    private func setAnswer(_ n: Int, _ status: Int) {
        requests.withLock { $0[n].answered = status }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let server: FaultyServer
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(server: FaultyServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let h):
                head = h
                body = []
            case .body(var buffer):
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let head else { return }
                let request = Request(path: head.uri, method: "\(head.method)", apiKey: head.headers.first(name: "X-API-Key"),
                                      contentType: head.headers.first(name: "Content-Type"), body: body,
                                      answered: nil, connection: ObjectIdentifier(context.channel))
                switch server.arrived(request) {
                case .ok:
                    respond(context, 200, retryAfter: nil, keepAlive: head.isKeepAlive)
                case .status(let status, let retryAfter):
                    respond(context, status, retryAfter: retryAfter, keepAlive: head.isKeepAlive)
                case .slow(let seconds):
                    let keepAlive = head.isKeepAlive
                    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                    context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                        let (handler, context) = loopBound.value
                        if context.channel.isActive { handler.respond(context, 200, retryAfter: nil, keepAlive: keepAlive) }
                    }
                case .drop:
                    context.close(promise: nil)
                case .redirect(let status, let location):
                    respond(context, status, retryAfter: nil, keepAlive: head.isKeepAlive, location: location)
                }
            }
        }

        func respond(_ context: ChannelHandlerContext, _ status: Int, retryAfter: String?, keepAlive: Bool,
                     location: String? = nil) {
            var headers = HTTPHeaders([("Content-Length", "0")])
            if let location { headers.add(name: "Location", value: location) }
            if let retryAfter { headers.add(name: "Retry-After", value: retryAfter) }
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status),
                                                                 headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
