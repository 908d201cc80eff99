import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// AsyncHTTPClient's `ResponseAccumulator`, noting whether any part of an answer (a redirect's
/// too) has come: `HTTPResourceLoader` sends a request whose connection closed before one did
/// again, once, as `PlainHTTPClient` does on a kept-alive connection.
final class AnswerNotingAccumulator: HTTPClientResponseDelegate {
    typealias Response = HTTPClient.Response

    private let accumulator: ResponseAccumulator
    private let began = Atomic<Bool>(false)

    /// Whether any part of an answer has come.
    var answerBegan: Bool { began.load(ordering: .acquiring) }

    init(request: HTTPClient.Request, maxBodySize: Int) {
        accumulator = ResponseAccumulator(request: request, maxBodySize: maxBodySize)
    }

    func didVisitURL(task: HTTPClient.Task<Response>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        began.store(true, ordering: .releasing)
        accumulator.didVisitURL(task: task, request, head)
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        began.store(true, ordering: .releasing)
        return accumulator.didReceiveHead(task: task, head)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        accumulator.didReceiveBodyPart(task: task, buffer)
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        accumulator.didReceiveError(task: task, error)
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try accumulator.didFinishRequest(task: task)
    }
}
