import MapSim
import MapSimCache
import MapSimContent

/// A site's data manager on a map: a `ContentSessionMachine` attached to the map, so the manager
/// runs in the map's own drive loop, on its clock — its manifest and item requests go through the
/// map's pipeline, its events into the map's stream. The session carries out what the machine asks
/// of the cache: its versions go in as pinned sets (`ContentImport`), and the time of each
/// completed check is recorded, so the maximum age holds across runs. Check times are the map's
/// wall clock at its virtual time.
public actor ContentSession {
    /// The style whose site this is; the manifest is `manifest.json` next to it.
    public nonisolated let styleURL: String
    private let map: Map
    private let cache: OfflineDatabase
    private let id: MapAttachmentID<ContentSessionMachine>
    /// What went wrong writing the cache since the last `loadData` began, reported as its failure.
    private var writeFailure: String?

    /// A session for the site of the style at `styleURL`, with what `cache` holds of it.
    public init(map: Map, cache: OfflineDatabase, styleURL: String, configuration: ContentDataManager.Configuration = .init()) async {
        var configuration = configuration
        configuration.clock = map.clock
        self.map = map
        self.cache = cache
        self.styleURL = styleURL
        let location = ContentLocation(styleURL: styleURL)
        let machine = ContentSessionMachine(location: location, installed: await ContentImport.installedManifest(styleURL: styleURL, cache: cache),
                                            lastCheck: try? cache.lastContentCheck(manifestURL: location.manifestURL), configuration: configuration)
        id = await map.attach(machine)
    }

    /// The site's name: the installed manifest's, or until one is known the manifest's URL.
    public var site: String {
        get async { await map.attachment(id).manager.site }
    }

    /// Imports a checked package as the installed version (a first run); content-ready follows. A
    /// version of the site lower than one the cache holds is refused, nothing written, unless
    /// `allowingDowngrade` (anti-rollback, as signed-update systems do).
    public func importPackage(_ package: ContentPackage, allowingDowngrade: Bool = false) async throws(ContentError) -> ContentImport.Summary {
        let summary = try await ContentImport.run(package, styleURL: styleURL, cache: cache, allowingDowngrade: allowingDowngrade)
        await map.send(.packageImported(package.manifest), to: id)
        await carryOutWrites()
        return summary
    }

    /// Pointr's `loadData`: a check unless `force` is false and the last one is younger than the
    /// maximum age. Runs the map until the check is over; returns what it came to.
    public func loadData(force: Bool) async -> ContentDataManager.Outcome {
        writeFailure = nil
        await map.send(.loadData(respectingCachePolicy: !force), to: id)
        // Every request has a deadline: the check is over by the last one at the latest.
        _ = await map.run(id, until: { !$0.manager.isChecking }, notAfter: .max)
        await carryOutWrites()
        var outcome = await map.attachment(id).manager.outcome ?? ContentDataManager.Outcome()
        if let writeFailure { outcome.errors["cache"] = writeFailure }
        return outcome
    }

    /// Call before the map loads a style: installs a version staged while the map was open, and
    /// says whether the load may go on (false: the mandatory first online check never completed).
    public func styleLoadStarting() async -> Bool {
        await map.send(.styleLoadStarting, to: id)
        await carryOutWrites()
        return await map.attachment(id).allowsStyleLoad
    }

    /// Writes into the cache what the machine asked, in order, and tells it so.
    private func carryOutWrites() async {
        let machine = await map.attachment(id)
        guard !machine.writes.isEmpty else { return }
        for write in machine.writes {
            switch write {
            case .recordCheck(let date):
                do {
                    try cache.recordContentCheck(manifestURL: machine.location.manifestURL, at: date)
                } catch {
                    writeFailure = "\(error)"
                }
            case .install(let manifest, let manifestBytes, let etag, let downloaded):
                do {
                    _ = try await ContentImport.install(manifest, manifestBytes: manifestBytes, etag: etag, downloaded: downloaded,
                                                        styleURL: styleURL, cache: cache)
                } catch {
                    writeFailure = "\(error)"
                }
            }
        }
        await map.send(.writesCarriedOut, to: id)
    }
}
