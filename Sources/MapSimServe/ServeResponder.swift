import Foundation
import HTTPTypes
import Hummingbird
import MapSim
import NIOCore

/// Answers one request of `mapsim serve` and reports it: the style (rewritten for the host the
/// client used), TileJSONs (their tiles rewritten), files of the folder, archives' TileJSONs and
/// tiles, resources of other servers (from the cache or their origin), CORS preflights; anything
/// else is refused with its 4xx, and reported too.
struct ServeResponder: Sendable {
    let folder: ServedFolder?
    let style: ServedStyle
    let remote: RemoteResources?
    let maxAge: Int
    /// The conditions' loop; nil when every request is answered at once.
    let conditions: ServeConditionsLoop?
    let start: ContinuousClock.Instant
    let page: ServePage
    let report: @Sendable (MapEvent) -> Void

    func answer(_ request: Request, context: ServeRequestContext) async -> Hummingbird.Response {
        let began = ContinuousClock.now
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let host = request.head.authority ?? headers["host"] ?? "localhost"
        let base = "http://\(host)/"
        let path = request.uri.path
        // The server's own page is not a served resource: answered at once, under no conditions, not reported.
        if ServePage.owns(path) {
            return Self.response(page.answer(path: path, query: request.uri.query, base: base, requestHeaders: headers), method: request.method.rawValue)
        }
        let query = request.uri.query.map { "?" + $0 } ?? ""
        let url = base + path.drop { $0 == "/" } + query
        let relative = path == "/" ? nil : ServedFolder.relativePath(path)
        var (resource, role) = relative.map { style.resource(url: url, path: $0) } ?? (Resource(url: url, kind: .unknown), nil)
        let method = request.method.rawValue
        var answer: FileAnswer
        switch method {
        case "GET", "HEAD":
            if let archived = archiveAnswer(role: role, resource: resource, method: method, headers: headers, base: base) {
                answer = archived
            } else if let remote, let relative, let original = RemoteResources.originalURL(path + query) {
                answer = await remoteAnswer(remote, original: original, path: relative, role: role, resource: resource, method: method, headers: headers, base: base)
            } else if role == .style {
                let bytes = style.style(base: base)
                answer = FileAnswer.answer(method: method, requestHeaders: headers, content: bytes, contentType: "application/json",
                                           etag: SimulatedNetwork.etag(for: bytes), modified: style.modified, maxAge: maxAge)
            } else if let relative, let (content, etag, file, type) = content(of: relative, role: role, base: base) {
                answer = FileAnswer.answer(method: method, requestHeaders: headers, content: content, contentType: type,
                                           etag: etag, modified: file.modified, modifiedText: file.modifiedText, maxAge: maxAge)
                if let range = answer.range { resource.dataRange = UInt64(range.lowerBound)...UInt64(range.upperBound) }
            } else {
                answer = Self.refusal(404, "not found: \(path)")
            }
        case "OPTIONS":
            answer = FileAnswer(status: 204, headers: FileAnswer.crossOrigin + [("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                                                                                ("Access-Control-Allow-Headers", "*"), ("Access-Control-Max-Age", "86400")],
                                body: [], contentLength: 0)
        default:
            var refused = Self.refusal(405, "\(method) is not served: GET, HEAD and OPTIONS are")
            refused.headers.append(("Allow", "GET, HEAD, OPTIONS"))
            answer = refused
        }
        // The network's conditions: a profile's delay, a fault, an offline window.
        var truncated = false
        switch await conditions?.decide(resource, size: answer.body.count) ?? .answer {
        case .answer:
            break
        case .status(let code, let headers):
            answer = Self.refusal(code, "a fault rule answers \(code)")
            answer.headers += headers.map { ($0.name, $0.value) }
        case .drop:
            context.channel.close(promise: nil)
            report(event(began, resource, MapSim.Response.failure(.connection, "the connection was dropped", source: .network)))
            return Hummingbird.Response(status: .ok)
        case .truncate:
            truncated = true
        }
        report(event(began, resource, truncated ? MapSim.Response.failure(.connection, "the body was cut after \(answer.body.count / 2) of \(answer.body.count) bytes",
                                                                           source: .network) : Self.response(answer)))
        guard truncated else { return Self.response(answer, method: method) }
        // The length says all of it; half comes, then the connection closes.
        let half = ByteBuffer(bytes: answer.body.prefix(answer.body.count / 2))
        let channel = context.channel
        return Hummingbird.Response(status: .init(code: answer.status), headers: Self.fields(answer), body: .init(contentLength: answer.body.count) { writer in
            try await writer.write(half)
            try await writer.finish(nil)
            channel.close(promise: nil)
        })
    }

    /// The HTTP response of `answer` to a `method` request.
    private static func response(_ answer: FileAnswer, method: String) -> Hummingbird.Response {
        var fields = fields(answer)
        if method == "HEAD" { fields[.contentLength] = String(answer.contentLength) }
        return Hummingbird.Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    private static func fields(_ answer: FileAnswer) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(answer.headers.count)
        for (name, value) in answer.headers {
            if let name = knownNames[name] ?? HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    /// The names every answer uses, made once rather than checked on every request.
    private static let knownNames: [String: HTTPField.Name] = {
        var names: [String: HTTPField.Name] = [:]
        for name in ["Content-Type", "ETag", "Last-Modified", "Cache-Control", "Accept-Ranges", "Access-Control-Allow-Origin",
                     "Access-Control-Expose-Headers", "Vary", "Content-Encoding", "Content-Range"] {
            names[name] = HTTPField.Name(name)
        }
        return names
    }()

    private func event(_ began: ContinuousClock.Instant, _ resource: Resource, _ response: MapSim.Response) -> MapEvent {
        MapEvent(begin: SimTime(began - start), end: SimTime(ContinuousClock.now - start),
                 payload: .resourceRequest(ResourceRequest(dataSource: .network, request: resource, response: response, cancelled: false)))
    }

    /// The answer for what an archive serves — its TileJSON, a tile (204 when the archive has
    /// none, as a map takes a missing tile, and 500 naming the damage when it cannot be read) — or
    /// nil for anything else.
    private func archiveAnswer(role: ServedStyle.Role?, resource: Resource, method: String, headers: [String: String], base: String) -> FileAnswer? {
        let archive: ServedArchive
        let bytes: [UInt8]
        let type: String
        switch role {
        case .archiveTileJSON(let source)?:
            guard let found = style.archives[source], let json = style.archiveTileJSON(source: source, base: base) else { return nil }
            (archive, bytes, type) = (found, json, "application/json")
        case .archiveTile(let source, _)?:
            guard let found = style.archives[source], let tile = resource.tileData?.id else { return nil }
            do {
                guard let data = try found.tile(z: tile.z, x: tile.x, y: tile.y) else {
                    return noContent
                }
                (archive, bytes, type) = (found, data, ServedFolder.contentType(of: "tile." + found.format))
            } catch {
                return Self.refusal(500, error.description)
            }
        default:
            return nil
        }
        return FileAnswer.answer(method: method, requestHeaders: headers, content: bytes, contentType: type, etag: SimulatedNetwork.etag(for: bytes),
                                 modified: archive.modified, maxAge: maxAge)
    }

    /// The answer for a resource of another server, served at `path`: the cache's copy or the
    /// origin's answer (a TileJSON's tiles rewritten), 204 for no content, 404 when the cache has
    /// none (and there is no origin to ask), 502 naming the origin's error.
    private func remoteAnswer(_ remote: RemoteResources, original: String, path: String, role: ServedStyle.Role?, resource: Resource, method: String,
                              headers: [String: String], base: String) async -> FileAnswer {
        var wanted = Resource(url: original, kind: resource.kind)
        if case .tile(let template, _)? = role, let tile = resource.tileData, let originalTemplate = RemoteResources.originalURL(template) {
            wanted = .tile(TileURLTemplate(originalTemplate), id: tile.id, pixelRatio: tile.pixelRatio)
        }
        let response = await remote.load(wanted)
        if let error = response.error {
            return Self.refusal(error.reason == .notFound && response.source == .cache ? 404 : 502, error.message)
        }
        guard let data = response.data, !response.noContent else {
            return noContent
        }
        let bytes = role == .tileJSON ? style.tileJSON(data, path: path, base: base) : data
        let etag = role == .tileJSON ? SimulatedNetwork.etag(for: bytes) : response.etag ?? SimulatedNetwork.etag(for: bytes)
        var type = ServedFolder.contentType(of: path)
        if type == "application/octet-stream" {
            switch resource.kind {
            case .style, .source, .spriteJSON: type = "application/json"
            case .glyphs: type = "application/x-protobuf"
            case .tile where !ImageSignature.isImage(bytes): type = "application/x-protobuf"
            default: break
            }
        }
        return FileAnswer.answer(method: method, requestHeaders: headers, content: bytes, contentType: type, etag: etag,
                                 modified: response.modified ?? style.modified, maxAge: maxAge)
    }

    /// The bytes served for a file below the folder, when and as what: TileJSONs rewritten for
    /// `base`, other files as they are.
    private func content(of relative: String, role: ServedStyle.Role?, base: String) -> (bytes: [UInt8], etag: String, file: ServedFolder.File, type: String)? {
        guard let folder, let file = folder.file(atRelativePath: relative) else { return nil }
        let rewritten: [UInt8]? = role == .tileJSON ? style.tileJSON(file.bytes, path: relative, base: base) : nil
        // A file as it is keeps the ETag the folder worked out once; a rewritten one has its own.
        guard let rewritten else { return (file.bytes, file.etag, file, ServedFolder.contentType(of: relative)) }
        return (rewritten, SimulatedNetwork.etag(for: rewritten), file, "application/json")
    }

    /// A 204, for a tile an archive or a cache does not have: no content, as a map takes it.
    private var noContent: FileAnswer {
        FileAnswer(status: 204, headers: [("Cache-Control", "max-age=\(maxAge)")] + FileAnswer.crossOrigin, body: [], contentLength: 0)
    }

    private static func refusal(_ status: Int, _ message: String) -> FileAnswer {
        let body = Array((message + "\n").utf8)
        return FileAnswer(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + FileAnswer.crossOrigin, body: body, contentLength: body.count)
    }

    /// The answer as the event's response.
    private static func response(_ answer: FileAnswer) -> MapSim.Response {
        let etag = answer.headers.first { $0.0 == "ETag" }?.1
        let modified = answer.modified
        guard answer.status < 400 else {
            let reason: MapSim.Response.Failure.Reason = answer.status == 404 ? .notFound : answer.status == 429 ? .rateLimit : answer.status >= 500 ? .server : .other
            return MapSim.Response(source: .network, error: .init(reason: reason, message: "HTTP \(answer.status): " + String(decoding: answer.body, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return MapSim.Response(data: answer.unencodedBody, noContent: answer.status == 204, notModified: answer.status == 304, modified: modified, etag: etag, source: .network)
    }
}
