import Foundation

/// Where the repository's sample styles are, for tests that load them for real.
public enum SampleStyle {
    /// The repository's `styles/` folder.
    public static let stylesFolder: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("styles").path
    }()

    /// The sample style's folder.
    public static var folder: String { stylesFolder + "/sample" }

    /// The `file://` URL of the sample style.
    public static var url: String { URL(fileURLWithPath: folder + "/style.json").absoluteString }

    /// The `file://` URL of a style under `styles/failing/`.
    public static func failing(_ name: String) -> String {
        URL(fileURLWithPath: stylesFolder + "/failing/\(name).json").absoluteString
    }

    /// The sample style's JSON text.
    public static func json() throws -> String {
        try String(contentsOfFile: folder + "/style.json", encoding: .utf8)
    }
}
