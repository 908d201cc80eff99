import Foundation
import MapSim

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
    /// What the URLs asked for were found to be.
    let resolvedURLs = ResolvedURLs()
    /// The bodies made for answers (rewritten, gzipped), kept to be sent again.
    let bodies = ServedBodies()
    let report: @Sendable (MapEvent) -> Void

    /// What a request needs after the part answered at once: the resource of another server to
    /// fetch, the network's conditions to wait for.
    struct Pending: Sendable {
        let began: ContinuousClock.Instant
        var resource: Resource
        /// The answer so far; nil while the resource of another server is not fetched.
        var answer: FileAnswer?
        /// The resource of another server the answer is: its original URL, its path below the folder, its role.
        var remote: (original: String, path: String, role: ServedStyle.Role?)?
        let request: ServeRequest
        let base: String
    }

    /// The reply to `request` when it can be given at once (on the connection's event loop, with no
    /// task to start), or what is left to do (`finish`): fetching from another server, waiting for
    /// the conditions.
    func reply(to request: ServeRequest) -> Either {
        let began = ContinuousClock.now
        let base = "http://\(request.host ?? "localhost")/"
        let path = request.path
        // The server's own page is not a served resource: answered at once, under no conditions, not reported.
        if ServePage.owns(path) {
            return .now(.answer(page.answer(path: path, query: request.query, base: base, requestHeaders: request.headers)))
        }
        let query = request.query.map { "?" + $0 } ?? ""
        let url = base + path.drop { $0 == "/" } + query
        let resolved = resolvedURLs.resolution(of: url) {
            let relative = path == "/" ? nil : ServedFolder.relativePath(path)
            let (resource, role) = relative.map { style.resource(url: url, path: $0) } ?? (Resource(url: url, kind: .unknown), nil)
            return ResolvedURLs.Resolved(relative: relative, resource: resource, role: role)
        }
        let (relative, role) = (resolved.relative, resolved.role)
        var resource = resolved.resource
        let method = request.method
        var pending = Pending(began: began, resource: resource, answer: nil, remote: nil, request: request, base: base)
        switch method {
        case "GET", "HEAD":
            let headers = request.headers
            if let archived = archiveAnswer(role: role, resource: resource, method: method, headers: headers, base: base) {
                pending.answer = archived
            } else if remote != nil, let relative, let original = RemoteResources.originalURL(path + query) {
                pending.remote = (original, relative, role)
            } else if role == .style {
                let style = self.style
                // The style as rewritten for this host, made once per host.
                let body = bodies.body("style \(base)") {
                    let bytes = style.style(base: base)
                    return ServedBodies.Body(bytes: bytes, etag: SimulatedNetwork.etag(for: bytes))
                }
                pending.answer = FileAnswer.answer(method: method, requestHeaders: headers, content: body?.bytes ?? [], contentType: "application/json",
                                                   etag: body?.etag ?? "\"\"", modified: style.modified, maxAge: maxAge, gzip: gzip)
            } else if let relative, let (content, etag, file, type) = content(of: relative, role: role, base: base) {
                let answer = FileAnswer.answer(method: method, requestHeaders: headers, content: content, contentType: type,
                                               etag: etag, modified: file.modified, modifiedText: file.modifiedText, maxAge: maxAge, gzip: gzip)
                if let range = answer.range { resource.dataRange = UInt64(range.lowerBound)...UInt64(range.upperBound) }
                pending.resource = resource
                pending.answer = answer
            } else {
                pending.answer = Self.refusal(404, "not found: \(path)")
            }
        case "OPTIONS":
            pending.answer = FileAnswer(status: 204, headers: FileAnswer.crossOrigin + [("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                                                                                         ("Access-Control-Allow-Headers", "*"), ("Access-Control-Max-Age", "86400")],
                                        body: [], contentLength: 0)
        default:
            var refused = Self.refusal(405, "\(method) is not served: GET, HEAD and OPTIONS are")
            refused.headers.append(("Allow", "GET, HEAD, OPTIONS"))
            pending.answer = refused
        }
        guard conditions == nil, let answer = pending.answer else { return .later(pending) }
        report(event(began, pending.resource, Self.response(answer)))
        return .now(.answer(answer))
    }

    /// A reply given at once, or what is left to do for it.
    enum Either: Sendable {
        case now(ServeReply)
        case later(Pending)
    }

    /// The reply to a request `reply(to:)` left pending: the resource of another server fetched,
    /// the network's conditions applied (a profile's delay, a fault, an offline window), and reported.
    func finish(_ pending: Pending) async -> ServeReply {
        var answer: FileAnswer
        if let (original, path, role) = pending.remote, let remote {
            answer = await remoteAnswer(remote, original: original, path: path, role: role, resource: pending.resource,
                                        method: pending.request.method, headers: pending.request.headers, base: pending.base)
        } else {
            answer = pending.answer ?? Self.refusal(500, "no answer")
        }
        let resource = pending.resource
        switch await conditions?.decide(resource, size: answer.body.count) ?? .answer {
        case .answer:
            break
        case .status(let code, let headers):
            answer = Self.refusal(code, "a fault rule answers \(code)")
            // A rule's headers are the user's: none that would break the answer's framing.
            answer.headers += headers.filter { !($0.name + $0.value).utf8.contains { $0 == 13 || $0 == 10 } }.map { ($0.name, $0.value) }
        case .drop:
            report(event(pending.began, resource, MapSim.Response.failure(.connection, "the connection was dropped", source: .network)))
            return .drop
        case .truncate:
            report(event(pending.began, resource, MapSim.Response.failure(.connection, "the body was cut after \(answer.body.count / 2) of \(answer.body.count) bytes",
                                                                          source: .network)))
            return .truncated(answer)
        }
        report(event(pending.began, resource, Self.response(answer)))
        return .answer(answer)
    }

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
                                 modified: archive.modified, maxAge: maxAge, gzip: gzip)
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
                                 modified: response.modified ?? style.modified, maxAge: maxAge, gzip: gzip)
    }

    /// The bytes served for a file below the folder, when and as what: TileJSONs and imported
    /// styles rewritten for `base` (once per host and version of the file), other files as they are.
    private func content(of relative: String, role: ServedStyle.Role?, base: String) -> (bytes: [UInt8], etag: String, file: ServedFolder.File, type: String)? {
        guard let folder, let file = folder.file(atRelativePath: relative) else { return nil }
        // A file as it is keeps the ETag the folder worked out once; a rewritten one has its own.
        guard role == .tileJSON || role == .importedStyle else { return (file.bytes, file.etag, file, ServedFolder.contentType(of: relative)) }
        let style = self.style
        let rewritten = bodies.body("\(role == .tileJSON ? "tilejson" : "style") \(relative) \(file.etag) \(base)") {
            let bytes = role == .tileJSON ? style.tileJSON(file.bytes, path: relative, base: base) : style.importedStyle(file.bytes, path: relative, base: base)
            return ServedBodies.Body(bytes: bytes, etag: SimulatedNetwork.etag(for: bytes))
        }
        guard let rewritten else { return nil }
        return (rewritten.bytes, rewritten.etag, file, "application/json")
    }

    /// Gzips a body for a client that takes gzip, once per ETag.
    private var gzip: ([UInt8], String) -> [UInt8]? {
        let bodies = self.bodies
        return { content, etag in bodies.gzipped(content, etag: etag) }
    }

    /// A 204, for a tile an archive or a cache does not have: no content, as a map takes it.
    private var noContent: FileAnswer {
        FileAnswer(status: 204, headers: [("Cache-Control", "max-age=\(maxAge)")] + FileAnswer.crossOrigin, body: [], contentLength: 0)
    }

    private static func refusal(_ status: Int, _ message: String) -> FileAnswer {
        // A 204 or a 304 has no body (a fault rule may answer either).
        let body = status == 204 || status == 304 || status < 200 ? [] : Array((message + "\n").utf8)
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
        // The event says the body's size, not its bytes: nothing that reads a server's events needs them.
        var response = MapSim.Response(noContent: answer.status == 204, notModified: answer.status == 304, modified: modified, etag: etag, source: .network)
        response.recordedSize = answer.unencodedBody.count
        return response
    }
}
