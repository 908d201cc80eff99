import Foundation
import GRDB
import MapSim

/// The ambient cache: lookups, and writes queued for group commits, as the maps use them.
extension OfflineDatabase {
    /// Writes that wait at most this many before a commit is queued without a store to carry them.
    static let pendingTouchLimit = 256

    public func load(_ resource: Resource) async -> Response {
        let key = RowKey(resource, mapbox: options.mapbox)
        do {
            guard let response = try storedResponse(key, for: resource.url) else {
                return .failure(.notFound, "\(resource.url) is not in the cache", source: .cache)
            }
            if !isReadOnly { enqueue(.touch(key, accessed: resource.issued?.secondsSince1970 ?? Self.now), commit: .whenWritesPileUp) }
            return response
        } catch {
            return .failure(.other, error.message, source: .cache)
        }
    }

    /// Queues the write and returns at once; a later lookup sees it. `flush()` waits for it.
    public func store(_ resource: Resource, _ response: Response) {
        guard !isReadOnly, response.error == nil, !response.notModified, response.data != nil || response.noContent else { return }
        let body = response.data.map { RowCompression.pack($0, zlib: response.zlibData) } ?? StoredBody(data: nil, compressed: false)
        enqueue(.put(RowKey(resource, mapbox: options.mapbox), kind: resource.storedKindNumber, body,
                     headers: StoredHeaders(response), accessed: resource.issued?.secondsSince1970 ?? Self.now, region: nil), commit: .atOnce)
    }

    /// Queued like `store(_:_:)`.
    public func refresh(_ resource: Resource, _ response: Response) {
        guard !isReadOnly, existing != nil else { return }
        enqueue(.refresh(RowKey(resource, mapbox: options.mapbox), expires: response.expires?.secondsSince1970, mustRevalidate: response.mustRevalidate,
                         accessed: resource.issued?.secondsSince1970 ?? Self.now), commit: .atOnce)
    }

    public func flush() async {
        guard let database = existing else { return }
        // A commit waiting out its spacing is not waited for: this one takes the writes now.
        let queue = state.withLock { state -> Bool in
            guard !state.pending.isEmpty, !state.commitQueued || state.commitSpaced else { return false }
            state.commitQueued = true
            state.commitSpaced = false
            return true
        }
        if queue { queueCommit(on: database) }
        _ = try? await database.writeWithoutTransaction { _ in }
    }

    // MARK: - Reading

    /// The lookup of a row's body and headers, by table, for files with and without `must_revalidate`.
    private static let lookupSQL: [String: String] = {
        var statements: [String: String] = [:]
        for key in [RowKey.resource(url: ""), RowKey.tile(template: "", pixelRatio: 1, z: 0, x: 0, y: 0)] {
            for revalidate in [true, false] {
                statements[key.table + (revalidate ? "" : "-old")] = """
                    SELECT data, compressed, expires, modified, etag, \(revalidate ? "must_revalidate" : "0") FROM \(key.table) WHERE \(key.condition)
                    """
            }
        }
        return statements
    }()

    /// The stored copy of the row at `key` (of `url`, for messages), or nil when there is none.
    func storedResponse(_ key: RowKey, for url: String) throws(CacheError) -> Response? {
        let sql = Self.lookupSQL[key.table + (features.mustRevalidate ? "" : "-old")] ?? ""
        var inflateFailure: RowCompressionError?
        let found = try read(url) { db -> Response? in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: key.arguments)
            guard let row = try rows.next() else { return nil }
            var response = Response(source: .cache)
            let compressed: Bool = row.lenient(1) ?? false
            do {
                // The body is read in place, and copied once: inflated, or as it is.
                response.data = try row.withUnsafeData(atIndex: 0) { data -> [UInt8]? in
                    guard let data else { return nil }
                    return try RowCompression.unpack(data, compressed: compressed)
                }
            } catch let error as RowCompressionError {
                inflateFailure = error
                return nil
            }
            response.noContent = response.data == nil
            response.expires = (row.lenient(2) as Int64?).map(HTTPDate.init(secondsSince1970:))
            response.modified = (row.lenient(3) as Int64?).map(HTTPDate.init(secondsSince1970:))
            response.etag = row.lenient(4)
            response.mustRevalidate = row.lenient(5) ?? false
            return response
        }
        if let inflateFailure {
            throw CacheError(.damaged, path: path, "the stored copy of \(url) in \(path) is damaged: it is marked compressed and does not inflate (\(inflateFailure.reason))")
        }
        return found ?? nil
    }

    // MARK: - Group commits

    /// How many writes wait for a commit (a download waits when they pile up).
    var pendingWrites: Int {
        state.withLock { $0.pending.count }
    }

    /// How many bytes of bodies wait for a commit.
    var pendingWriteBytes: Int {
        state.withLock { $0.pendingBytes }
    }

    /// When a queued write is committed.
    enum CommitTiming {
        /// With the next write that asks for a commit, or once `pendingTouchLimit` writes wait.
        case whenWritesPileUp
        /// As soon as the writer is free: the commit takes every write queued when it starts.
        case atOnce
        /// As soon as the writer is free, but no sooner than `commitSpacing` after the last commit
        /// began (the first, after its first write): a steady stream of writes shares one commit
        /// every `commitSpacing`.
        case spaced
    }

    /// The least time between two spaced commits. A write waits at most this long before its commit
    /// is queued, well within the 100 ms a write may take to be on disk; a commit in rollback-journal
    /// mode costs four `fdatasync`s, and a download that committed each time the writer was free
    /// spent a quarter of its CPU committing.
    static let commitSpacing: Duration = .milliseconds(40)

    /// Adds a write to the queue, and queues a commit as `commit` says, when none is queued already.
    /// A commit takes every write queued when it starts.
    func enqueue(_ write: PendingWrite, commit: CommitTiming) {
        guard let database = try? writable else { return }
        let wait = state.withLock { state -> Duration? in
            guard state.database === database else { return nil }
            state.pending.append(write)
            state.pendingBytes += write.byteCount
            guard !state.commitQueued, commit != .whenWritesPileUp || state.pending.count >= Self.pendingTouchLimit else { return nil }
            state.commitQueued = true
            guard commit == .spaced else { return .zero }
            // The first spaced commit gathers too: a download's first answer, its style, is followed
            // at once by the lookup of what the style names, which waited for a commit of the style
            // alone (a small download committed twice where once does).
            let wait = (state.lastCommit ?? .now) + Self.commitSpacing - .now
            state.commitSpaced = wait > .zero
            return max(wait, .zero)
        }
        guard let wait else { return }
        guard wait > .zero else { return queueCommit(on: database) }
        let (seconds, attoseconds) = wait.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            // Unless `flush()` took the writes meanwhile.
            let due = self.state.withLock { state -> Bool in
                guard state.commitSpaced else { return false }
                state.commitSpaced = false
                return true
            }
            if due { self.queueCommit(on: database) }
        }
    }

    private func queueCommit(on database: DatabaseQueue) {
        database.asyncWrite({ db in try self.commit(db) }, completion: { _, result in
            guard case .failure(let error) = result else { return }
            if self.setAsideIfDamaged(error, database: database) == nil {
                let message = "writes to the cache \(self.path) were lost: \(Self.describe(error))"
                self.state.withLock { state in
                    state.problems.note(message)
                    state.writeLoss = state.writeLoss ?? message
                }
            }
        })
    }

    /// Applies every queued write in the current transaction, then keeps the ambient cache under
    /// its maximum size.
    private func commit(_ db: Database) throws {
        let batch = state.withLock { state -> [PendingWrite] in
            state.commitQueued = false
            state.lastCommit = .now
            defer {
                state.pending.removeAll(keepingCapacity: true)
                state.pendingBytes = 0
            }
            return state.pending
        }
        var stored = false
        var rows = RowStatements(db)
        for write in batch {
            switch write {
            case .put(let key, let kind, let body, let headers, let accessed, let region):
                let id = try rows.put(key, kind: kind, body, headers: headers, accessed: accessed)
                if let region {
                    try rows.link(key, id: id, region: region)
                } else {
                    stored = true
                }
            case .link(let key, let region):
                try rows.linkStored(key, region: region)
            case .refresh(let key, let expires, let mustRevalidate, let accessed):
                try db.cachedStatement(sql: "UPDATE \(key.table) SET accessed = ?, expires = ?, must_revalidate = ? WHERE \(key.condition)")
                    .execute(arguments: [accessed, expires, mustRevalidate] + key.arguments)
            case .touch(let key, let accessed):
                try db.cachedStatement(sql: "UPDATE \(key.table) SET accessed = ? WHERE \(key.condition)").execute(arguments: [accessed] + key.arguments)
            }
        }
        if stored { try evictAmbient(db, hasMapsimTables: state.withLock { $0.hasMapsimTables }) }
    }
}

extension StoredHeaders {
    /// The headers of `response` as a row keeps them.
    init(_ response: Response) {
        self.init(expires: response.expires?.secondsSince1970, modified: response.modified?.secondsSince1970, etag: response.etag,
                  mustRevalidate: response.mustRevalidate)
    }
}
