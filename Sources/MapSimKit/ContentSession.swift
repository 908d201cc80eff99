import MapSim
import MapSimCache
import MapSimContent

/// Runs a site's data manager (`ContentDataManager`) for a map: the manifest and item requests go
/// through the map's loading pipeline (its network, faults and offline mode, on its clock, their
/// resource-request events in its stream; never written to the cache by the pipeline), the
/// manager's events go into the map's stream, its versions into the cache as pinned sets
/// (`ContentImport`), and the time of each completed check into the cache, so the maximum age holds
/// across runs. The clock is the map's: its wall clock at its virtual time.
public actor ContentSession {
    /// The style whose site this is; the manifest is `manifest.json` next to it.
    public nonisolated let styleURL: String
    private let map: Map
    private let cache: OfflineDatabase
    private var manager: ContentDataManager
    /// The manifest as the server last sent it, with its ETag, for `install` and the next conditional request.
    private var served: (bytes: [UInt8], etag: String?)?
    /// What went wrong writing the cache, reported as the check's failure.
    private var writeFailure: String?
    /// What the manager said of the style load about to start.
    private var allowsStyleLoad = true
    /// How long one request may take, in the map's virtual time.
    private static let requestTimeout = SimTime.seconds(120)

    /// A session for the site of the style at `styleURL`, with what `cache` holds of it.
    public init(map: Map, cache: OfflineDatabase, styleURL: String, configuration: ContentDataManager.Configuration = .init()) async {
        var configuration = configuration
        configuration.clock = map.clock
        self.map = map
        self.cache = cache
        self.styleURL = styleURL
        let manifestURL = ContentImport.manifestURL(styleURL: styleURL)
        let installed = await ContentImport.installedManifest(styleURL: styleURL, cache: cache)
        served = installed.map { ($0.bytes, $0.etag) }
        manager = ContentDataManager(manifestURL: manifestURL, installed: installed?.manifest,
                                     lastCheck: try? cache.lastContentCheck(manifestURL: manifestURL), configuration: configuration)
    }

    /// The site's name: the installed manifest's, or until one is known the manifest's URL.
    public var site: String { manager.site }

    /// Imports a checked package as the installed version (a first run); content-ready follows. A
    /// version of the site lower than one the cache holds is refused, nothing written, unless
    /// `allowingDowngrade` (anti-rollback, as signed-update systems do).
    public func importPackage(_ package: ContentPackage, allowingDowngrade: Bool = false) async throws(ContentError) -> ContentImport.Summary {
        let summary = try await ContentImport.run(package, styleURL: styleURL, cache: cache, allowingDowngrade: allowingDowngrade)
        served = (package.manifest.json, nil)
        await feed(.packageImported(package.manifest))
        return summary
    }

    /// Pointr's `loadData`: a check unless `force` is false and the last one is younger than the
    /// maximum age. Returns what it came to.
    public func loadData(force: Bool) async -> ContentDataManager.Outcome {
        writeFailure = nil
        await feed(.loadData(respectingCachePolicy: !force))
        var outcome = manager.outcome ?? ContentDataManager.Outcome()
        if let writeFailure { outcome.errors["cache"] = writeFailure }
        return outcome
    }

    /// Call before the map loads a style: installs a version staged while the map was open, and
    /// says whether the load may go on (false: the mandatory first online check never completed).
    public func styleLoadStarting() async -> Bool {
        allowsStyleLoad = true
        await feed(.styleLoadStarting)
        return allowsStyleLoad
    }

    /// Feeds the manager `input` at the map's time, and carries out its actions — feeding it the
    /// answers they bring — until it asks for nothing more.
    private func feed(_ input: ContentDataManager.Input) async {
        var queue = manager.handle(input, at: await map.now)[...]
        while let action = queue.popFirst() {
            switch action {
            case .allowStyleLoad(let allowed):
                allowsStyleLoad = allowed
            case .report(let event):
                await map.report(.content(event))
            case .recordCheck(let time):
                do {
                    try cache.recordContentCheck(manifestURL: ContentImport.manifestURL(styleURL: styleURL), at: time)
                } catch {
                    writeFailure = "\(error)"
                }
            case .install(let manifest, let downloaded):
                // The manifest as served, when the last one served is this one (its ETag then holds).
                let copy = served.flatMap { (try? ContentManifest(json: $0.bytes)) == manifest ? $0 : nil }
                do {
                    _ = try await ContentImport.install(manifest, manifestBytes: copy?.bytes ?? manifest.json, etag: copy?.etag,
                                                        downloaded: downloaded, styleURL: styleURL, cache: cache)
                } catch {
                    writeFailure = "\(error)"
                }
            case .requestManifest:
                queue += await requestManifest()
            case .requestItems(let items):
                queue += await request(items)
            }
        }
    }

    private func requestManifest() async -> [ContentDataManager.Action] {
        let prior = served.map { Resource.Prior(modified: nil, expires: nil, etag: $0.etag, data: $0.bytes) }
        let resource = Resource(url: ContentImport.manifestURL(styleURL: styleURL), kind: .unknown, loadingMethod: .network,
                                storagePolicy: .volatile, prior: prior)
        let response = await map.fetch([resource], timeout: Self.requestTimeout)[0]
        let now = await map.now
        if let error = response.error { return manager.handle(.manifestAnswered(.failure(error.message)), at: now) }
        guard let bytes = response.data else { return manager.handle(.manifestAnswered(.failure("the server sent no manifest")), at: now) }
        do {
            let manifest = try ContentManifest(json: bytes)
            // The pipeline hands a 304 over as the prior copy: keep the ETag it was confirmed with.
            served = (bytes, response.etag ?? (bytes == served?.bytes ? served?.etag : nil))
            return manager.handle(.manifestAnswered(.manifest(manifest)), at: now)
        } catch {
            return manager.handle(.manifestAnswered(.failure("\(error)")), at: now)
        }
    }

    private func request(_ items: [ContentItem]) async -> [ContentDataManager.Action] {
        let resources = items.map { Resource(url: ContentImport.url(of: $0, styleURL: styleURL), kind: .unknown, loadingMethod: .network, storagePolicy: .volatile) }
        let responses = await map.fetch(resources, timeout: Self.requestTimeout)
        let now = await map.now
        var actions: [ContentDataManager.Action] = []
        for (item, response) in zip(items, responses) {
            actions += manager.handle(.itemAnswered(item, bytes: response.error == nil ? response.data : nil, failure: response.error?.message), at: now)
        }
        return actions
    }
}
