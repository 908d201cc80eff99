import NIOCore
import Synchronization

/// What a connection's handler tells the client from its event loop: when the broker was last
/// heard from, deliveries dropped because the backlog was full, and why the connection was closed
/// when a packet was malformed.
final class MQTTConnectionReport: Sendable {
    private let state = Mutex((missed: 0, malformed: String?.none, lastHeard: NIODeadline.now()))

    /// When the last packet arrived, as the event loop read it — however long the client's own
    /// reader takes to get to it, so that a busy process never takes a live broker for a dead one.
    var lastHeard: NIODeadline { state.withLock { $0.lastHeard } }

    func heard() { state.withLock { $0.lastHeard = .now() } }

    /// Deliveries dropped because the backlog was full.
    var missed: Int { state.withLock { $0.missed } }

    /// Why the connection was closed, when a packet was malformed.
    var malformed: String? { state.withLock { $0.malformed } }

    func countMissed() { state.withLock { $0.missed += 1 } }

    func closed(malformed reason: String) { state.withLock { $0.malformed = $0.malformed ?? reason } }
}
