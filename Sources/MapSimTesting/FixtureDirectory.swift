import Foundation

/// A temporary directory for a test's files, removed when released.
public final class FixtureDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// A new, empty directory under the system's temporary folder.
    public init() throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("mapsim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.resolvingSymlinksInPath().path
    }

    /// Writes `bytes` to `relativePath`, creating folders.
    @discardableResult
    public func write(_ relativePath: String, _ bytes: [UInt8]) throws -> String {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes `text` to `relativePath`, creating folders.
    @discardableResult
    public func write(_ relativePath: String, _ text: String) throws -> String {
        try write(relativePath, Array(text.utf8))
    }

    /// Copies every file of `folder` into `relativePath`.
    public func copy(folder: String, to relativePath: String) throws {
        let destination = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder, toPath: destination.path)
    }

    /// The `file://` URL of `relativePath`.
    public func url(_ relativePath: String) -> String {
        URL(fileURLWithPath: path).appendingPathComponent(relativePath).absoluteString
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
