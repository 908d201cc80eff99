import Foundation
import MapSimJSON

/// Answers `file://` and `asset://` URLs from the file system.
///
/// `asset://PATH` is read below the asset root; a path that leaves it — by `..` or through a symbolic
/// link — is refused. A missing file or a directory is `not-found`; a file that cannot be read is `other`.
public struct FileResourceLoader: ResourceLoader {
    /// The directory `asset://` URLs are rooted at.
    public var assetRoot: String

    /// A loader with `asset://` rooted at `assetRoot`.
    public init(assetRoot: String) {
        self.assetRoot = assetRoot
    }

    public func handles(_ url: String) -> Bool {
        let scheme = URLResolver.scheme(of: url)
        return scheme == "file" || scheme == "asset"
    }

    public func load(_ resource: Resource) async -> Response {
        switch Self.location(of: resource.url, assetRoot: assetRoot) {
        case .refused(let failure):
            return Response(source: .localFile, error: failure)
        case .file(let path):
            return Self.read(path, range: resource.dataRange, url: resource.url)
        }
    }

    /// Where a `file://` or `asset://` URL points: a file path, or why it may not be read.
    private enum Location {
        case file(String)
        case refused(Response.Failure)
    }

    /// The file path a `file://` or `asset://` URL names, checked against the asset root.
    private static func location(of url: String, assetRoot: String) -> Location {
        let scheme = URLResolver.scheme(of: url)
        var rest = String(url.dropFirst((scheme?.count ?? 0) + 1))
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = String(rest[..<end]) }
        guard let decoded = PercentDecoder.decode(rest) else {
            return .refused(.init(reason: .other, message: "invalid percent-encoding in \(url)"))
        }
        switch scheme {
        case "file":
            var path = decoded
            if path.hasPrefix("//") {
                path = String(path.dropFirst(2))
                // file://host/path: only an empty host or localhost is local.
                let slash = path.firstIndex(of: "/") ?? path.endIndex
                let host = path[..<slash]
                guard host.isEmpty || host == "localhost" else {
                    return .refused(.init(reason: .other, message: "file URL with a remote host: \(url)"))
                }
                path = String(path[slash...])
            }
            return .file(path)
        case "asset":
            let relative = decoded.hasPrefix("//") ? String(decoded.dropFirst(2)) : decoded
            let root = URL(fileURLWithPath: assetRoot).standardizedFileURL.resolvingSymlinksInPath().path
            let candidate = URL(fileURLWithPath: root).appendingPathComponent(relative).standardizedFileURL
            let resolved = candidate.resolvingSymlinksInPath().path
            guard isInside(candidate.path, root: root), isInside(resolved, root: root) else {
                return .refused(.init(reason: .other, message: "\(url) leaves the asset root \(root)"))
            }
            return .file(resolved)
        default:
            return .refused(.init(reason: .other, message: "not a file or asset URL: \(url)"))
        }
    }

    private static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The largest file read, as the network's largest body: 50 MiB.
    public static let maximumSize = 50 * 1024 * 1024

    private static func read(_ path: String, range: ClosedRange<UInt64>?, url: String) -> Response {
        do {
            if let range { return .success(try InputFile.read(path, range: range, limit: maximumSize), source: .localFile) }
            return .success(try InputFile.read(path, limit: maximumSize), source: .localFile)
        } catch where error.code == .missing {
            return .failure(.notFound, "no file at \(path)", source: .localFile)
        } catch where error.code == .isDirectory {
            return .failure(.notFound, "\(path) is a directory, not a file", source: .localFile)
        } catch {
            return .failure(.other, "\(error)", source: .localFile)
        }
    }
}
