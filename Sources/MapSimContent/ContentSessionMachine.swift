import MapSim

/// A site's data manager attached to a map: `ContentDataManager` in the map's drive loop, its
/// manifest and item requests fetched through the map's pipeline (its network, faults and offline
/// mode, on its clock, their resource-request events in its stream; never written to the cache by
/// the pipeline), its events in the map's stream. It reads the manifests the server sends, keeps
/// the ETag of the one served last for the next conditional request, and says what must be written
/// into the cache (`Write`) for the session beside it to carry out.
public struct ContentSessionMachine: MapAttachment {
    /// A manifest as the server sent it, with its ETag.
    public struct ServedManifest: Sendable, Equatable {
        /// The manifest read.
        public var manifest: ContentManifest
        /// Its bytes as sent.
        public var bytes: [UInt8]
        /// Its ETag; nil when the server sent none or it came in a package.
        public var etag: String?

        /// A manifest served as `bytes` with `etag`.
        public init(manifest: ContentManifest, bytes: [UInt8], etag: String?) {
            self.manifest = manifest
            self.bytes = bytes
            self.etag = etag
        }
    }

    /// What must be written into the cache, in order.
    public enum Write: Sendable, Equatable {
        /// Make `manifest` the site's content (`ContentDataManager.Action.install`), the manifest
        /// stored as `manifestBytes` with `etag`.
        case install(ContentManifest, manifestBytes: [UInt8], etag: String?, downloaded: [ContentItem: [UInt8]])
        /// Remember that a check completed at this date.
        case recordCheck(at: HTTPDate)
    }

    /// What happens to the session.
    public enum Input: Sendable {
        /// A checked package was imported into the cache as the installed version.
        case packageImported(ContentManifest)
        /// Pointr's `loadData`: a check unless `respectingCachePolicy` and the last one is young.
        case loadData(respectingCachePolicy: Bool)
        /// A style load is about to start.
        case styleLoadStarting
        /// The manifest request's first answer.
        case manifestFetched(Response)
        /// An item request's first answer.
        case itemFetched(ContentItem, Response)
        /// The session carried out the writes asked so far.
        case writesCarriedOut
    }

    public typealias Action = AttachmentAction<Input>

    /// How long one request may take, in the map's virtual time.
    static let requestTimeout = SimTime.seconds(120)

    /// Where the site is served.
    public let location: ContentLocation
    /// The data manager.
    public private(set) var manager: ContentDataManager
    /// What the session must write into the cache, in order, until it says it did.
    public private(set) var writes: [Write] = []
    /// What the manager said of the last style load about to start.
    public private(set) var allowsStyleLoad = true
    /// The manifest the server sent last (the installed one until it sends one), for the next
    /// conditional request and the install.
    private var served: ServedManifest?

    /// The session of the site at `location`, with what the cache holds: the installed manifest as
    /// it was served, and when the last check completed.
    public init(location: ContentLocation, installed: ServedManifest?, lastCheck: HTTPDate?, configuration: ContentDataManager.Configuration) {
        self.location = location
        served = installed
        manager = ContentDataManager(manifestURL: location.manifestURL, installed: installed?.manifest, lastCheck: lastCheck, configuration: configuration)
    }

    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .packageImported(let manifest):
            served = ServedManifest(manifest: manifest, bytes: manifest.json, etag: nil)
            return carryOut(manager.handle(.packageImported(manifest), at: now))
        case .loadData(let respectingCachePolicy):
            return carryOut(manager.handle(.loadData(respectingCachePolicy: respectingCachePolicy), at: now))
        case .styleLoadStarting:
            allowsStyleLoad = true
            return carryOut(manager.handle(.styleLoadStarting, at: now))
        case .manifestFetched(let response):
            return carryOut(manager.handle(.manifestAnswered(read(response)), at: now))
        case .itemFetched(let item, let response):
            let answer = ContentDataManager.Input.itemAnswered(item, bytes: response.error == nil ? response.data : nil, failure: response.error?.message)
            return carryOut(manager.handle(answer, at: now))
        case .writesCarriedOut:
            writes = []
            return []
        }
    }

    /// What the server's answer to the manifest request says; a manifest read is kept with its ETag
    /// (a 304 hands over the prior copy, so the ETag it was confirmed with stays).
    private mutating func read(_ response: Response) -> ContentDataManager.ManifestAnswer {
        if let error = response.error { return .failure(error.message) }
        guard let bytes = response.data else { return .failure("the server sent no manifest") }
        do {
            let manifest = try ContentManifest(json: bytes)
            served = ServedManifest(manifest: manifest, bytes: bytes, etag: response.etag ?? (bytes == served?.bytes ? served?.etag : nil))
            return .manifest(manifest)
        } catch {
            return .failure("\(error)")
        }
    }

    /// The manager's actions as the map's loop carries them out; writes wait for the session.
    private mutating func carryOut(_ managerActions: [ContentDataManager.Action]) -> [Action] {
        var actions: [Action] = []
        for action in managerActions {
            switch action {
            case .report(let event):
                actions.append(.emit(.content(event)))
            case .allowStyleLoad(let allowed):
                allowsStyleLoad = allowed
            case .recordCheck(let date):
                writes.append(.recordCheck(at: date))
            case .install(let manifest, let downloaded):
                // The manifest as served, when the last one served is this one (its ETag then holds).
                let copy = served?.manifest == manifest ? served : nil
                writes.append(.install(manifest, manifestBytes: copy?.bytes ?? manifest.json, etag: copy?.etag, downloaded: downloaded))
            case .requestManifest:
                let prior = served.map { Resource.Prior(modified: nil, expires: nil, etag: $0.etag, data: $0.bytes) }
                let resource = Resource(url: location.manifestURL, kind: .unknown, loadingMethod: .network, storagePolicy: .volatile, prior: prior)
                actions.append(.fetch(resource, timeout: Self.requestTimeout) { .manifestFetched($0) })
            case .requestItems(let items):
                for item in items {
                    let resource = Resource(url: location.url(of: item), kind: .unknown, loadingMethod: .network, storagePolicy: .volatile)
                    actions.append(.fetch(resource, timeout: Self.requestTimeout) { .itemFetched(item, $0) })
                }
            }
        }
        return actions
    }
}
