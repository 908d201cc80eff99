import Synchronization

/// What the handlers of a `WebSocketFeedClient` connection tell the client from their event loop:
/// whether the handshake succeeded, why the connection ended when it failed, and the messages
/// dropped because the backlog was full. The connection's end finishes the events once, with why.
final class WebSocketConnectionReport: Sendable {
    private struct State {
        var isOpen = false
        var failure: WebSocketFeedError?
        var missed = 0
        var finished = false
    }

    private let state = Mutex(State())
    private let events: AsyncThrowingStream<WebSocketFeedClient.Event, any Error>.Continuation

    init(events: AsyncThrowingStream<WebSocketFeedClient.Event, any Error>.Continuation) {
        self.events = events
    }

    /// Messages dropped because the backlog was full.
    var missed: Int { state.withLock { $0.missed } }

    /// The handshake succeeded.
    func opened() {
        state.withLock { $0.isOpen = true }
        events.yield(.opened)
    }

    /// A text message arrived.
    func received(_ text: String) {
        if case .dropped = events.yield(.text(text)) { state.withLock { $0.missed += 1 } }
    }

    /// Why the connection is ending; the first reason given is kept.
    func failed(_ failure: WebSocketFeedError) {
        state.withLock { $0.failure = $0.failure ?? failure }
    }

    /// The connection ended: the events finish, throwing why unless the server closed an open connection.
    func ended() {
        let failure = state.withLock { state -> WebSocketFeedError?? in
            guard !state.finished else { return .none }
            state.finished = true
            return .some(state.failure ?? (state.isOpen ? nil : WebSocketFeedError(.connection, "the server closed the connection before the WebSocket handshake")))
        }
        if case .some(let failure) = failure { events.finish(throwing: failure) }
    }
}
