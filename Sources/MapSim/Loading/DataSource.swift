/// The backends a resource-request event can name.
public enum DataSource: String, Sendable {
    case resourceLoader = "resource-loader"
    case network
    case database
    case asset
    case fileSystem = "file-system"
}
