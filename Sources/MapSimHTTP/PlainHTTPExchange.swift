import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// One GET of a `PlainHTTPClient`: its request, and how it ends — handed to its completion once,
/// whether it is answered, fails, or is given up from any thread.
final class PlainHTTPExchange: Sendable {
    /// The request's head.
    let head: HTTPRequestHead
    /// How long the server may stay silent.
    let readTimeout: TimeAmount
    /// The largest body accepted, as sent and as inflated.
    let maximumBodySize: Int

    private struct State {
        var completion: (@Sendable (Result<PlainHTTPClient.Answer, any Error>) -> Void)?
        /// The connection it runs on, once it does.
        var channel: (any Channel)?
    }

    private let state: Mutex<State>

    init(head: HTTPRequestHead, readTimeout: TimeAmount, maximumBodySize: Int,
         completion: @escaping @Sendable (Result<PlainHTTPClient.Answer, any Error>) -> Void) {
        self.head = head
        self.readTimeout = readTimeout
        self.maximumBodySize = maximumBodySize
        state = Mutex(State(completion: completion))
    }

    /// Runs the exchange on `channel`; false when it has already ended (given up before it ran).
    func attach(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard state.completion != nil else { return false }
            state.channel = channel
            return true
        }
    }

    /// Ends the exchange with `answer`, unless it has ended already.
    func succeed(_ answer: PlainHTTPClient.Answer) {
        end(.success(answer))
    }

    /// Ends the exchange with `error`, unless it has ended already.
    func fail(_ error: any Error) {
        end(.failure(error))
    }

    /// Gives the exchange up: it ends as cancelled, and its connection, if it had one, is closed.
    func cancel() {
        let channel = state.withLock { $0.completion == nil ? nil : $0.channel }
        end(.failure(HTTPClientError.cancelled))
        channel?.close(promise: nil)
    }

    private func end(_ result: Result<PlainHTTPClient.Answer, any Error>) {
        let completion = state.withLock { state in
            defer { state.completion = nil }
            return state.completion
        }
        completion?(result)
    }
}
