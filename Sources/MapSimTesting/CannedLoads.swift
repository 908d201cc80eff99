import MapSim
import Synchronization

/// Canned answers for a drive loop in a test: each load is answered at once, by a function of the
/// resource, with nothing real underneath — as NIOEmbedded runs NIOCore's code. Time it with a
/// `DeliveryTiming` (`FixedLatency`) to put answers later in virtual time. It remembers every load
/// it started, and answers may be overridden by URL as a test goes.
public final class CannedLoads: LoadPerformer {
    private let answer: @Sendable (Resource) -> Response
    private let log = Mutex<[Resource]>([])
    private let replaced = Mutex<[String: Response]>([:])

    /// Loads answered by `answer`.
    public init(_ answer: @escaping @Sendable (Resource) -> Response) {
        self.answer = answer
    }

    /// Every resource loaded so far, in order.
    public var started: [Resource] { log.withLock { $0 } }

    /// Answers that replace `answer`'s, by URL.
    public var overrides: [String: Response] {
        get { replaced.withLock { $0 } }
        set { replaced.withLock { $0 = newValue } }
    }

    public func start(_ order: LoadOrder) -> Response {
        log.withLock { $0.append(order.resource) }
        return replaced.withLock { $0[order.resource.url] } ?? answer(order.resource)
    }

    public func finish(_ handle: Response) async -> (response: Response, measured: SimTime) {
        (handle, .zero)
    }

    public func cancel(_ handle: Response) {}
}
