// Push throughput: LocationPusher against a local HTTP/1.1 sink on loopback, in one process.
//
// The sink (SwiftNIO, keep-alive) answers every PUT with 200 and counts them. The pusher gets
// `--updates` locations of as many distinct sessions (so none coalesces: every update is a
// request), with the default policy (64 in flight). The figure is updates delivered per second
// of wall time, from the first submit to the end of the drain, the median of `--runs` runs.
// Prints JSON.
//
//     swift run -c release --package-path benchmarks PushThroughput [--updates 100000] [--runs 5]
import Foundation
import LocationPush
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

final class Sink: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    static let count = Atomic<Int>(0)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        Self.count.add(1, ordering: .relaxed)
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: HTTPHeaders([("Content-Length", "0")]))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

func argument(_ name: String, _ fallback: Int) -> Int {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) { return v }
    return fallback
}

let updates = argument("--updates", 100_000)
let runs = argument("--runs", 5)
let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(Sink()) }
    }
    .bind(host: "127.0.0.1", port: 0).wait()
let port = server.localAddress!.port!
let body = Array(#"{"latitude":49.888171,"longitude":-97.131112,"accuracy":12.5}"#.utf8)

var rates: [Double] = []
for run in 0..<runs {
    let pusher = LocationPusher(endpoint: try PushEndpoint(baseURL: "http://127.0.0.1:\(port)", apiKey: APIKey("bench")!))
    let before = Sink.count.load(ordering: .relaxed)
    let start = Date()
    for i in 0..<updates { pusher.submit(session: "r\(run)-s\(i)", body: body) }
    let letters = await pusher.drain(timeout: 300)
    let seconds = Date().timeIntervalSince(start)
    try await pusher.shutdown()
    let stats = pusher.statistics
    precondition(letters.isEmpty && stats.pushed == updates && Sink.count.load(ordering: .relaxed) - before == updates,
                 "not every update was delivered: \(stats)")
    rates.append(Double(updates) / seconds)
}
rates.sort()
let result: [String: Any] = ["updates": updates, "runs": rates.map { ($0 * 10).rounded() / 10 },
                             "median_updates_per_s": rates[rates.count / 2], "max_in_flight": PushPolicy().maxInFlight]
print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
try server.close().wait()
