/// The state of a live-data connection, as MapsIndoors' live-data manager names it.
public enum LiveConnectionState: String, Sendable, Equatable, CaseIterable {
    /// Not connected: at first, after a loss, and after a disconnect.
    case closed
    case connecting
    case connected
    case disconnecting
}
