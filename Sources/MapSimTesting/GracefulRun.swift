import Logging
import ServiceLifecycle

/// A service (a Hummingbird application) run in a task and stopped gracefully: no new connection,
/// the answers in flight finished, and what a client keeps open closed after a grace period. A
/// Hummingbird server stopped by cancelling its task can accept a connection as it goes away, which
/// brings SwiftNIO down ("Deinited NIOAsyncWriter without calling finish()").
public final class GracefulRun: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Runs `service`; `failed` hears the error it ends with, if it fails.
    public init(_ service: some Service, logger: Logger, failed: @escaping @Sendable (any Error) -> Void = { _ in }) {
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: logger))
        self.group = group
        task = Task {
            do {
                try await group.run()
            } catch {
                failed(error)
                throw error
            }
        }
    }

    /// Stops it gracefully; after `grace` what is still open is closed anyway (the listener is
    /// closed by then, so no connection arrives while it ends).
    public func stop(grace: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let deadline = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        _ = try? await task.value
        deadline.cancel()
    }
}
