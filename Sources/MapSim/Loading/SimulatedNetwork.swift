import Foundation
import MapSimJSON
import Synchronization

/// A network that serves `http(s)` URLs from local folders, answering like an HTTP server would —
/// `ETag`s, conditional requests, 404s — and misbehaving on purpose where a fault rule says so.
///
/// How long answers take is the business of its `NetworkProfile`, not of this loader. Fault rules are
/// counted per URL, so "the first two requests of tiles.json fail" holds whatever order concurrent
/// requests run in.
public struct SimulatedNetwork: ResourceLoader {
    /// A URL prefix served from a folder: `https://tiles.example.com/` → `./mirror`.
    public struct Mirror: Sendable, Equatable {
        /// The URL prefix.
        public var prefix: String
        /// The folder its paths are read from.
        public var directory: String

        /// A mirror of `prefix` in `directory`.
        public init(prefix: String, directory: String) {
            self.prefix = prefix
            self.directory = directory
        }
    }

    /// The folders that serve URL prefixes, tried in order.
    public var mirrors: [Mirror]
    /// The fault rules, tried in order; the first that matches and has uses left applies.
    public var faults: [FaultRule]
    /// `Cache-Control` sent with every successful answer, if any.
    public var cacheControl: String?
    private let uses = SharedFaultUses()
    private let fingerprints = FileFingerprints()

    /// A network serving `mirrors`, with `faults`.
    public init(mirrors: [Mirror], faults: [FaultRule] = [], cacheControl: String? = nil) {
        self.mirrors = mirrors
        self.faults = faults
        self.cacheControl = cacheControl
    }

    public func handles(_ url: String) -> Bool {
        let scheme = URLResolver.scheme(of: url)
        return scheme == "http" || scheme == "https"
    }

    public func load(_ resource: Resource) async -> Response {
        let now = resource.issued ?? HTTPDate(secondsSince1970: 0)
        let fault = uses.counts.withLock { $0.take(from: faults, for: resource.url) }
        switch fault?.effect {
        case .status(let status, let headers):
            return HTTPResponseMapping.response(status: status, headers: headers, body: [], for: resource, now: now)
        case .dropConnection:
            return .failure(.connection, "connection reset by peer: \(resource.url)", source: .network)
        case .truncateBody, .delay, nil:
            break
        }
        guard let path = localPath(for: resource.url) else {
            return .failure(.connection, "could not resolve host of \(resource.url) (no mirror serves it)", source: .network)
        }
        if let range = resource.dataRange {
            return rangeResponse(path: path, range: range, fault: fault, for: resource, now: now)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let contents = FileManager.default.contents(atPath: path) else {
            return HTTPResponseMapping.response(status: 404, headers: [], body: [], for: resource, now: now)
        }
        var body = [UInt8](contents)
        let etag = Self.etag(for: body)
        let headers = answerHeaders(etag: etag)
        if resource.prior?.etag == etag {
            return HTTPResponseMapping.response(status: 304, headers: headers, body: [], for: resource, now: now)
        }
        if case .truncateBody = fault?.effect { body = Array(body.prefix(body.count / 2)) }
        return HTTPResponseMapping.response(status: 200, headers: headers, body: body, for: resource, now: now)
    }

    /// A `Range` request answered as a server does: 206 with the bytes (fewer when the file ends
    /// inside the range), 416 when it starts past the end; the ETag is the whole file's, read once.
    private func rangeResponse(path: String, range: ClosedRange<UInt64>, fault: FaultRule?, for resource: Resource, now: HTTPDate) -> Response {
        guard let (etag, size) = fingerprints.etag(of: path) else {
            return HTTPResponseMapping.response(status: 404, headers: [], body: [], for: resource, now: now)
        }
        var headers = answerHeaders(etag: etag)
        if resource.prior?.etag == etag {
            return HTTPResponseMapping.response(status: 304, headers: headers, body: [], for: resource, now: now)
        }
        do {
            var body = try InputFile.read(path, range: range, limit: FileResourceLoader.maximumSize)
            if case .truncateBody = fault?.effect { body = Array(body.prefix(body.count / 2)) }
            headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.lowerBound + UInt64(body.count) - 1)/\(size)"))
            return HTTPResponseMapping.response(status: 206, headers: headers, body: body, for: resource, now: now)
        } catch where error.code == .outOfRange {
            headers.append(("Content-Range", "bytes */\(size)"))
            return HTTPResponseMapping.response(status: 416, headers: headers, body: [], for: resource, now: now)
        } catch {
            return HTTPResponseMapping.response(status: 500, headers: headers, body: [], for: resource, now: now)
        }
    }

    /// The headers of every answer about content with `etag`.
    private func answerHeaders(etag: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("ETag", etag)]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        return headers
    }

    /// The file a URL maps to; nil when no mirror serves it or the path would leave the mirror.
    func localPath(for url: String) -> String? {
        guard let mirror = mirrors.first(where: { url.hasPrefix($0.prefix) }) else { return nil }
        var rest = String(url.dropFirst(mirror.prefix.count))
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = String(rest[..<end]) }
        guard let decoded = PercentDecoder.decode(rest) else { return nil }
        let root = URL(fileURLWithPath: mirror.directory).standardizedFileURL.path
        let path = URL(fileURLWithPath: root).appendingPathComponent(decoded).standardizedFileURL.path
        return path == root || path.hasPrefix(root + "/") ? path : nil
    }

    /// A strong ETag for content: its FNV-1a fingerprint, quoted. Stable across runs and machines.
    public static func etag(for bytes: [UInt8]) -> String {
        var fingerprint = FNV1a()
        fingerprint.add(bytes)
        return fingerprint.etag
    }
}

/// The fault rules' uses, shared by the loads that run at once.
private final class SharedFaultUses: Sendable {
    let counts = Mutex(FaultUses())
}
