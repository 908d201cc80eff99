/// The folder and name of a file path, split at its last `/` — without Foundation's `NSString` path
/// methods, which trap on a one-character name (`k`) in swift-corelibs-foundation.
public enum FilePath {
    /// The folder of `path`: `.` for a bare name, `/` for a file at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `name` resolved against the folder `folder` (an absolute `name` stays as it is).
    public static func join(_ folder: String, _ name: String) -> String {
        name.hasPrefix("/") ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }
}
