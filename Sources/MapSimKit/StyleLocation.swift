import Foundation
import MapSim

/// Turns what the user typed into the style URL.
public enum StyleLocation {
    /// A URL as it is; a path as an absolute, percent-encoded `file://` URL.
    public static func url(for argument: String) -> String {
        if let scheme = URLResolver.scheme(of: argument), scheme.count > 1 { return argument }
        let absolute = URL(fileURLWithPath: argument, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return absolute.standardizedFileURL.absoluteString
    }

    /// The folder of a `file://` style URL.
    public static func folder(of url: String) -> String? {
        guard URLResolver.scheme(of: url) == "file", let parsed = URL(string: url) else { return nil }
        return parsed.deletingLastPathComponent().path
    }
}
