/// The connection status of a dynamic-entity data source, as ArcGIS names it.
public enum DynamicEntityConnectionStatus: String, Sendable, Equatable, CaseIterable {
    /// Not connected: at first, and after a disconnect.
    case disconnected
    /// Connecting, or reconnecting after a loss.
    case connecting
    case connected
    /// Every reconnect attempt failed.
    case failed
}
