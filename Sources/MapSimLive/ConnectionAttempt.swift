/// One attempt to connect a real transport (a broker, a feed), known by its identity: the tasks of an
/// attempt carry it, so that what an attempt replaced since (by a reconnect or a close) reports late
/// is recognised and ignored — the role the drive loop's attempt ids play for requests.
final class ConnectionAttempt: Sendable {
    init() {}
}
