import MapSimStyle

/// Reads `pmtiles://` sources as MapLibre Native's PMTiles file source does: a source's TileJSON
/// and each of its tiles are answered from byte ranges of the archive — the header, the metadata,
/// the root and leaf directories, the tile's bytes — each range a request of its own through the
/// pipeline (so it is a `resource-request`, cached, simulated and faulted like any other).
///
/// Headers and directories are read once per archive and kept (leaves in a bounded cache); jobs
/// that need the same range share one read. When a remote archive's ETag changes between reads,
/// what was kept is dropped and every job starts again from the header, network-only, as the
/// PMTiles specification says; a second change in a row fails the jobs.
struct PMTilesReader: StateMachine {
    enum Input: Sendable {
        /// The load sequence asks for a source's TileJSON or a tile at a `pmtiles://` URL.
        case request(RequestPurpose, Resource)
        /// The load sequence no longer needs it.
        case cancel(RequestPurpose)
        /// A new style: every job is dropped (the map cancels the reads); what was kept stays.
        case cancelAll
        /// A read answered.
        case answer(ArchiveRead, Response, final: Bool)
    }

    enum Action: Sendable, Equatable {
        /// Read this range through the pipeline.
        case read(ArchiveRead, Resource)
        /// No job needs this read any more.
        case cancelRead(ArchiveRead)
        /// The answer to the load sequence's request.
        case deliver(RequestPurpose, Resource, Response, final: Bool)
    }

    /// Whether `url` is read by this machine.
    static func reads(_ url: String) -> Bool {
        URLResolver.scheme(of: url) == "pmtiles"
    }

    /// What a job waits for.
    private enum Role: Equatable {
        case header, metadata, directory(depth: Int), tileData
    }

    private struct Job {
        var resource: Resource
        var archive: String
        var awaiting: (read: ArchiveRead, role: Role)?
    }

    private struct Archive {
        var header: PMTilesHeader?
        var root: PMTilesDirectory?
        var leaves = PMTilesDirectoryCache()
        var etag: String?
        /// Changes of the ETag in a row, without a completed job between them.
        var changes = 0
        /// After a change, ranges are read from the network only (a cached range may be stale).
        var networkOnly = false
    }

    private var archives: [String: Archive] = [:]
    private var jobs: [RequestPurpose: Job] = [:]
    /// Reads under way, with the jobs waiting on each, in the order they asked.
    private var waiters: [ArchiveRead: [RequestPurpose]] = [:]
    /// A usable answer a read gave before its final one: jobs that join the read take it at once.
    private var early: [ArchiveRead: Response] = [:]

    mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .request(let purpose, let resource):
            return start(purpose, resource)
        case .cancel(let purpose):
            return cancel(purpose)
        case .cancelAll:
            jobs = [:]
            waiters = [:]
            early = [:]
            return []
        case .answer(let read, let response, let final):
            return receive(response, for: read, final: final)
        }
    }

    /// Whether a job for `purpose` is under way.
    func isReading(_ purpose: RequestPurpose) -> Bool {
        jobs[purpose] != nil
    }

    private mutating func start(_ purpose: RequestPurpose, _ resource: Resource) -> [Action] {
        let archive = String(resource.url.dropFirst("pmtiles://".count))
        guard URLResolver.scheme(of: archive) != nil else {
            return fail(purpose, resource, "\(resource.url): a pmtiles:// URL names an absolute URL of the archive, like pmtiles://https://example.com/tiles.pmtiles or pmtiles://file:///path/tiles.pmtiles", source: .localFile)
        }
        switch purpose {
        case .metadata, .tile: break
        default:
            return fail(purpose, resource, "\(resource.url) is a tile archive: only a source's url reads it", source: .localFile)
        }
        let cancelled = jobs[purpose] != nil ? cancel(purpose) : []
        jobs[purpose] = Job(resource: resource, archive: archive)
        return cancelled + advance(purpose)
    }

    private mutating func cancel(_ purpose: RequestPurpose) -> [Action] {
        guard let job = jobs.removeValue(forKey: purpose), let read = job.awaiting?.read else { return [] }
        return leave(read, purpose, cancellingWhenUnwanted: true)
    }

    /// Takes `purpose` off the waiters of `read`; a read nobody waits for any more is cancelled when
    /// `cancellingWhenUnwanted` (a job was cancelled), and left to finish when it answered.
    private mutating func leave(_ read: ArchiveRead, _ purpose: RequestPurpose, cancellingWhenUnwanted: Bool) -> [Action] {
        guard var waiting = waiters[read] else { return [] }
        waiting.removeAll { $0 == purpose }
        guard waiting.isEmpty else {
            waiters[read] = waiting
            return []
        }
        waiters[read] = nil
        guard cancellingWhenUnwanted else { return [] }
        early[read] = nil
        return [.cancelRead(read)]
    }

    /// Walks the job as far as what is kept allows: the header, then the metadata or the directories
    /// down to the tile, asking for the first range it does not have.
    private mutating func advance(_ purpose: RequestPurpose) -> [Action] {
        guard let job = jobs[purpose] else { return [] }
        let state = archives[job.archive, default: Archive()]
        guard let header = state.header else {
            return need(ArchiveRead(url: job.archive, range: PMTilesLookup.headerRange), .header, for: purpose)
        }
        do throws(PMTilesError) {
            guard case .tile = purpose, let id = job.resource.tileData?.id else {
                guard let range = try PMTilesLookup.metadataRange(of: header) else {
                    return complete(purpose, .success(try PMTilesTileJSON.make(url: job.resource.url, header: header, metadata: nil), source: .localFile))
                }
                return need(ArchiveRead(url: job.archive, range: range), .metadata, for: purpose)
            }
            guard id.z >= Int(header.minZoom), id.z <= Int(header.maxZoom), id.z <= PMTilesTileID.maximumZoom else {
                return complete(purpose, Response(noContent: true, source: .localFile))
            }
            guard var directory = state.root else {
                return need(ArchiveRead(url: job.archive, range: try PMTilesLookup.rootRange(of: header)), .directory(depth: 0), for: purpose)
            }
            let tileID = PMTilesTileID.id(z: id.z, x: id.x, y: id.y)
            for depth in 0...PMTilesLookup.maximumDepth {
                switch try PMTilesLookup.step(for: tileID, in: directory, depth: depth, header: header) {
                case .missing:
                    return complete(purpose, Response(noContent: true, source: .localFile))
                case .data(let range):
                    return need(ArchiveRead(url: job.archive, range: range), .tileData, for: purpose)
                case .leaf(let range):
                    guard let kept = archives[job.archive]?.leaves.directory(at: range.lowerBound) else {
                        return need(ArchiveRead(url: job.archive, range: range), .directory(depth: depth + 1), for: purpose)
                    }
                    directory = kept
                }
            }
            return []
        } catch {
            return fail(purpose, job.resource, "\(job.archive): \(error.message)", source: .localFile)
        }
    }

    /// Makes `purpose` wait for `read`, which starts unless it is under way.
    private mutating func need(_ read: ArchiveRead, _ role: Role, for purpose: RequestPurpose) -> [Action] {
        jobs[purpose]?.awaiting = (read, role)
        if let response = early[read] {
            waiters[read, default: []].append(purpose)
            return use(response, of: read, for: purpose)
        }
        if waiters[read] != nil {
            waiters[read]?.append(purpose)
            return []
        }
        waiters[read] = [purpose]
        let method: Resource.LoadingMethod = archives[read.url]?.networkOnly == true ? .network : .all
        return [.read(read, Resource.archiveRange(read.url, read.range, tileData: role == .tileData).loading(from: method))]
    }

    private mutating func receive(_ response: Response, for read: ArchiveRead, final: Bool) -> [Action] {
        let usable = response.error == nil && response.data != nil
        if final {
            early[read] = nil
        } else if usable {
            early[read] = response
        }
        guard let waiting = waiters[read] else { return [] }
        if final { waiters[read] = nil }
        if !usable {
            // A failure the pipeline retries (non-final) is passed on and the jobs keep waiting.
            return waiting.flatMap { relayFailure(response, of: read, for: $0, final: final) }
        }
        if let changed = etagChange(response, read: read) {
            return archiveChanged(read.url, changed)
        }
        return waiting.flatMap { use(response, of: read, for: $0) }
    }

    /// The old and new ETag when `response` says the archive is no longer the one whose header was read.
    private func etagChange(_ response: Response, read: ArchiveRead) -> (old: String, new: String)? {
        guard let known = archives[read.url]?.etag, let etag = response.etag, etag != known else { return nil }
        return (known, etag)
    }

    /// Hands a usable answer of `read` to the job `purpose` waits with.
    private mutating func use(_ response: Response, of read: ArchiveRead, for purpose: RequestPurpose) -> [Action] {
        guard let job = jobs[purpose], let (awaited, role) = job.awaiting, awaited == read else { return [] }
        // Left without cancelling: nothing to ask.
        _ = leave(read, purpose, cancellingWhenUnwanted: false)
        jobs[purpose]?.awaiting = nil
        // Short reads fail in the pipeline; a header shorter than asked for may be no archive at
        // all, and the header says which.
        let bytes = response.data ?? []
        let wanted = read.range.upperBound - read.range.lowerBound + 1
        let what = Self.describe(role)
        let data = bytes.count > Int(wanted) ? Array(bytes.prefix(Int(wanted))) : bytes
        do throws(PMTilesError) {
            if role == .header, archives[read.url]?.header == nil {
                let header = try PMTilesHeader(data)
                try PMTilesLookup.checkCompression(of: header)
                archives[read.url, default: Archive()].header = header
                archives[read.url]?.etag = response.etag
            }
            guard let header = archives[read.url]?.header else { return advance(purpose) }
            switch role {
            case .header:
                return advance(purpose)
            case .metadata:
                let metadata = try PMTilesLookup.decompress(data, header.internalCompression, what: "the metadata")
                return complete(purpose, .success(try PMTilesTileJSON.make(url: job.resource.url, header: header, metadata: metadata), source: response.source))
            case .directory(let depth):
                // Every job waiting on the read gets the answer: the directory is decoded for the first.
                if depth == 0, archives[read.url]?.root == nil {
                    archives[read.url]?.root = try PMTilesDirectory(decoding: try PMTilesLookup.decompress(data, header.internalCompression, what: what))
                } else if depth > 0, archives[read.url]?.leaves.directory(at: read.range.lowerBound) == nil {
                    let leaf = try PMTilesDirectory(decoding: try PMTilesLookup.decompress(data, header.internalCompression, what: what))
                    archives[read.url]?.leaves.keep(leaf, at: read.range.lowerBound)
                }
                return advance(purpose)
            case .tileData:
                return complete(purpose, .success(try PMTilesLookup.tileContent(data, header: header), source: response.source))
            }
        } catch {
            return fail(purpose, job.resource, "\(read.url): \(what) at bytes \(read.range.lowerBound)–\(read.range.upperBound): \(error.message)", source: response.source)
        }
    }

    private mutating func relayFailure(_ response: Response, of read: ArchiveRead, for purpose: RequestPurpose, final: Bool) -> [Action] {
        guard let job = jobs[purpose], let (_, role) = job.awaiting else { return [] }
        let failure = response.error ?? Response.Failure(reason: .other, message: "no data")
        var relayed = response
        relayed.error = Response.Failure(reason: failure.reason,
                                         message: "\(read.url): reading \(Self.describe(role)) at bytes \(read.range.lowerBound)–\(read.range.upperBound): \(failure.message)",
                                         retryAfter: failure.retryAfter)
        relayed.data = nil
        if final { jobs[purpose] = nil }
        return [.deliver(purpose, job.resource, relayed, final: final)]
    }

    /// The archive at `url` changed under the reader: drop what was kept and start every job over,
    /// network-only; after a second change in a row, fail them.
    private mutating func archiveChanged(_ url: String, _ change: (old: String, new: String)) -> [Action] {
        let changes = (archives[url]?.changes ?? 0) + 1
        var actions: [Action] = []
        for read in waiters.keys.filter({ $0.url == url }).sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            waiters[read] = nil
            early[read] = nil
            actions.append(.cancelRead(read))
        }
        var fresh = Archive()
        fresh.changes = changes
        fresh.networkOnly = true
        archives[url] = fresh
        let affected = jobs.filter { $0.value.archive == url }.map(\.key).sorted { "\($0)" < "\($1)" }
        for purpose in affected {
            jobs[purpose]?.awaiting = nil
            if changes > 1, let job = jobs[purpose] {
                actions += fail(purpose, job.resource, "\(url) changed while it was read (ETag \(change.old), then \(change.new)) twice in a row", source: .network)
            } else {
                actions += advance(purpose)
            }
        }
        return actions
    }

    private mutating func complete(_ purpose: RequestPurpose, _ response: Response) -> [Action] {
        guard let job = jobs.removeValue(forKey: purpose) else { return [] }
        archives[job.archive]?.changes = 0
        return [.deliver(purpose, job.resource, response, final: true)]
    }

    private mutating func fail(_ purpose: RequestPurpose, _ resource: Resource, _ message: String, source: Response.Source) -> [Action] {
        jobs[purpose] = nil
        return [.deliver(purpose, resource, .failure(.other, message, source: source), final: true)]
    }

    private static func describe(_ role: Role) -> String {
        switch role {
        case .header: "the header"
        case .metadata: "the metadata"
        case .directory(let depth): depth == 0 ? "the root directory" : "a leaf directory"
        case .tileData: "a tile"
        }
    }
}
