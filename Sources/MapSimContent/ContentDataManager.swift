import MapSim

/// A site's data manager as a pure state machine, after Pointr's Data Manager: when to check the
/// server for a newer version of the site's content, what to download, when a new version takes
/// effect, and what to report. No I/O and no clock: an executor feeds it the map's virtual time,
/// the server's answers and the map's style loads, and carries out the actions it returns — so the
/// same inputs give the same actions, and tests drive it directly. Check times are wall-clock dates
/// (they outlive the run, in the cache), read off the map's wall clock at its virtual time.
///
/// The rules:
/// - `loadData(respectingCachePolicy: true)` checks only when the last completed check is
///   `maximumAge` old or more (15 minutes, Pointr's `dataCacheMaxAge`); `false` checks whatever
///   the age (a forced refresh). A check is one conditional request for the manifest; only when
///   the server's version is higher are the items whose SHA-256 changed downloaded.
/// - Every downloaded item must have the manifest's size and SHA-256. A version is installed only
///   whole: one item that fails leaves the installed version as it was, and the check is not
///   recorded, so the next `loadData` tries again.
/// - A version that arrives while a map is open is staged, and installed when the next style
///   load starts: an update never changes a map mid-load.
/// - With `requiresFirstOnlineCheck`, a style load is refused until a check has completed once
///   (the SDK refuses to run on a fresh install that never reached the server).
///
/// Events: `content-start {is-online-data}` when `loadData` begins (true when it goes to the
/// server), `content-ready {is-online-data: false}` once installed content is usable (a package,
/// a previous version), `content-ready {is-online-data: true}` when a check confirmed or brought
/// the newest version, and `content-complete-all {is-successful, is-online-data, errors}` at the
/// end, `errors` naming the manifest or each failed item.
public struct ContentDataManager: StateMachine {
    /// The manager's settings.
    public struct Configuration: Sendable, Equatable {
        /// Pointr's `dataCacheMaxAge`.
        public static let defaultMaximumAge = SimTime.seconds(15 * 60)

        /// How old the last completed check may be before `loadData` checks again.
        public var maximumAge: SimTime
        /// Whether style loads are refused until a check has completed once.
        public var requiresFirstOnlineCheck: Bool
        /// The map's wall clock: the date at each virtual time.
        public var clock: WallClock

        /// Settings; by default Pointr's 15 minutes and no mandatory first check.
        public init(maximumAge: SimTime = Self.defaultMaximumAge, requiresFirstOnlineCheck: Bool = false, clock: WallClock = .simulated) {
            self.maximumAge = maximumAge
            self.requiresFirstOnlineCheck = requiresFirstOnlineCheck
            self.clock = clock
        }
    }

    /// What happens to the manager.
    public enum Input: Sendable, Equatable {
        /// A checked package was imported as the installed version (a first run): its content is usable.
        case packageImported(ContentManifest)
        /// The app asks for the site's data: a check, unless `respectingCachePolicy` and the last
        /// check is younger than the maximum age. Ignored while a check is under way.
        case loadData(respectingCachePolicy: Bool)
        /// The server answered the manifest request.
        case manifestAnswered(ManifestAnswer)
        /// An item requested by `requestItems` arrived (`bytes`), or failed (`failure`).
        case itemAnswered(ContentItem, bytes: [UInt8]?, failure: String?)
        /// A style load is about to start; a staged version is installed first.
        case styleLoadStarting
    }

    /// What the executor must do, in order.
    public enum Action: Sendable, Equatable {
        /// Request the site's manifest from its server, conditionally on the installed copy.
        case requestManifest
        /// Download these items of the manifest being checked; answer each with `itemAnswered`.
        case requestItems([ContentItem])
        /// Make `manifest` the site's content: store the `downloaded` items (the others are stored
        /// already), pin every item of the manifest and the manifest itself, then unpin the previous version.
        case install(ContentManifest, downloaded: [ContentItem: [UInt8]])
        /// Remember that a check completed at this date.
        case recordCheck(at: HTTPDate)
        /// Send this event into the map's stream.
        case report(ContentEvent)
        /// The style load may go on (false: the mandatory first online check never completed).
        case allowStyleLoad(Bool)
    }

    /// The server's answer to the manifest request.
    public enum ManifestAnswer: Sendable, Equatable {
        /// The manifest it serves (the installed one again after a 304).
        case manifest(ContentManifest)
        /// Why there is none: offline, unreachable, an HTTP error, a manifest that does not read.
        case failure(String)
    }

    /// What a `loadData` came to, once it is over.
    public struct Outcome: Sendable, Equatable {
        /// The version installed before.
        public var previousVersion: Int?
        /// The newest version the manager has: installed, or staged for the next style load.
        public var version: Int?
        /// Whether no request was made: the last check was younger than the maximum age.
        public var skipped = false
        /// Whether the new version waits for the next style load (a map was open).
        public var staged = false
        /// The items downloaded.
        public var changed: [ContentItem] = []
        /// What failed: `manifest` or an item's URL, and why.
        public var errors: [String: String] = [:]

        /// An outcome with nothing changed yet, from these versions.
        public init(previousVersion: Int? = nil, version: Int? = nil) {
            self.previousVersion = previousVersion
            self.version = version
        }
    }

    private enum Phase: Sendable, Equatable {
        case idle
        case checkingManifest
        case downloading(ContentManifest, pending: Set<String>)
    }

    public let configuration: Configuration
    /// The site's name: the installed manifest's, or until one is known the manifest's URL.
    public private(set) var site: String
    /// The version in use.
    public private(set) var installed: ContentManifest?
    /// A version downloaded while a map was open, with the items it brought, installed at the next style load.
    public private(set) var staged: (manifest: ContentManifest, downloaded: [ContentItem: [UInt8]])?
    /// When the last check completed.
    public private(set) var lastCheck: HTTPDate?
    /// The outcome of the last `loadData` that is over.
    public private(set) var outcome: Outcome?
    /// Whether a check is under way: its manifest or items are awaited.
    public var isChecking: Bool { phase != .idle }
    private var phase = Phase.idle
    private var current = Outcome()
    private var downloaded: [ContentItem: [UInt8]] = [:]
    private var isMapOpen = false
    private var hasReportedReady = false
    /// Whether a manifest ever came from the server in this run (a check may still not have completed).
    private var reachedServer = false

    /// A manager for the site whose manifest is `manifestURL`, with what the cache holds: the
    /// installed manifest and when the last check completed.
    public init(manifestURL: String, installed: ContentManifest?, lastCheck: HTTPDate?, configuration: Configuration = Configuration()) {
        site = installed?.site ?? manifestURL
        self.installed = installed
        self.lastCheck = lastCheck
        self.configuration = configuration
    }

    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        let date = configuration.clock.date(at: now)
        switch input {
        case .packageImported(let manifest): return packageImported(manifest)
        case .loadData(let respectingCachePolicy): return loadData(respectingCachePolicy: respectingCachePolicy, now: date)
        case .manifestAnswered(let answer): return manifestAnswered(answer, now: date)
        case .itemAnswered(let item, let bytes, let failure): return itemAnswered(item, bytes: bytes, failure: failure, now: date)
        case .styleLoadStarting: return styleLoadStarting()
        }
    }

    private mutating func packageImported(_ manifest: ContentManifest) -> [Action] {
        installed = manifest
        site = manifest.site
        hasReportedReady = true
        return [.report(.ready(site: site, isOnlineData: false))]
    }

    private mutating func loadData(respectingCachePolicy: Bool, now: HTTPDate) -> [Action] {
        guard phase == .idle else { return [] }
        current = Outcome(previousVersion: installed?.version, version: staged?.manifest.version ?? installed?.version)
        if respectingCachePolicy, installed != nil, let lastCheck, isYoung(lastCheck, now: now) {
            current.skipped = true
            var actions: [Action] = [.report(.start(site: site, isOnlineData: false))]
            actions += reportReadyOffline()
            return actions + finish(successful: true, online: false)
        }
        phase = .checkingManifest
        return [.report(.start(site: site, isOnlineData: true))] + reportReadyOffline() + [.requestManifest]
    }

    /// Whether a check completed at `check` is younger than the maximum age at `now`.
    private func isYoung(_ check: HTTPDate, now: HTTPDate) -> Bool {
        now.seconds(since: check) < configuration.maximumAge.microseconds / 1_000_000
    }

    private mutating func manifestAnswered(_ answer: ManifestAnswer, now: HTTPDate) -> [Action] {
        guard phase == .checkingManifest else { preconditionFailure("the manifest was answered while the manager is \(phase): only a check asks for it") }
        let manifest: ContentManifest
        switch answer {
        case .failure(let message):
            current.errors["manifest"] = message
            return finish(successful: false, online: false)
        case .manifest(let served):
            manifest = served
            reachedServer = true
        }
        let newest = staged?.manifest ?? installed
        if let newest, newest.site == manifest.site, manifest.version <= newest.version {
            lastCheck = now
            return [.recordCheck(at: now), .report(.ready(site: site, isOnlineData: true))] + finish(successful: true, online: true)
        }
        let known = Set((installed?.items ?? []).map(\.identity))
        var carried: [ContentItem: [UInt8]] = [:]
        var needed: [ContentItem] = []
        for item in manifest.items where !known.contains(item.identity) {
            if let bytes = staged?.downloaded[item] { carried[item] = bytes } else { needed.append(item) }
        }
        downloaded = carried
        guard !needed.isEmpty else { return complete(manifest, now: now) }
        phase = .downloading(manifest, pending: Set(needed.map(\.url)))
        return [.requestItems(needed)]
    }

    private mutating func itemAnswered(_ item: ContentItem, bytes: [UInt8]?, failure: String?, now: HTTPDate) -> [Action] {
        guard case .downloading(let manifest, var pending) = phase, pending.remove(item.url) != nil else {
            preconditionFailure("item \(item.url) was answered while the manager is \(phase): it was not asked for, or was answered before")
        }
        phase = .downloading(manifest, pending: pending)
        if let bytes, failure == nil {
            let hash = ContentManifest.sha256(bytes)
            if bytes.count == item.size && hash == item.sha256 {
                downloaded[item] = bytes
                current.changed.append(item)
            } else {
                current.errors[item.url] = "the server sent \(bytes.count) bytes with SHA-256 \(hash); the manifest says \(item.size) bytes, \(item.sha256)"
            }
        } else {
            current.errors[item.url] = failure ?? "no content"
        }
        guard pending.isEmpty else { return [] }
        guard current.errors.isEmpty else {
            // Nothing of the new version is kept: the installed one stays whole.
            downloaded = [:]
            current.changed = []
            return finish(successful: false, online: false)
        }
        return complete(manifest, now: now)
    }

    private mutating func styleLoadStarting() -> [Action] {
        if configuration.requiresFirstOnlineCheck && lastCheck == nil {
            let message = reachedServer
                ? "the first online check did not complete: the content server sent the manifest, but not every item of it came, and the first online check is mandatory"
                : "the content server has never been reached, and the first online check is mandatory"
            return [.report(.completeAll(site: site, isSuccessful: false, isOnlineData: false, errors: ["first-online-check": message])),
                    .allowStyleLoad(false)]
        }
        isMapOpen = true
        guard let (manifest, items) = staged else { return [.allowStyleLoad(true)] }
        staged = nil
        installed = manifest
        site = manifest.site
        return [.install(manifest, downloaded: items), .allowStyleLoad(true)]
    }

    /// Every item of `manifest` is at hand: install it now, or stage it while a map is open.
    private mutating func complete(_ manifest: ContentManifest, now: HTTPDate) -> [Action] {
        var actions: [Action] = []
        current.version = manifest.version
        if isMapOpen {
            staged = (manifest, downloaded)
            current.staged = true
        } else {
            installed = manifest
            actions.append(.install(manifest, downloaded: downloaded))
        }
        site = manifest.site
        downloaded = [:]
        lastCheck = now
        actions += [.recordCheck(at: now), .report(.ready(site: site, isOnlineData: true))]
        return actions + finish(successful: true, online: true)
    }

    private mutating func reportReadyOffline() -> [Action] {
        guard installed != nil, !hasReportedReady else { return [] }
        hasReportedReady = true
        return [.report(.ready(site: site, isOnlineData: false))]
    }

    private mutating func finish(successful: Bool, online: Bool) -> [Action] {
        phase = .idle
        outcome = current
        return [.report(.completeAll(site: site, isSuccessful: successful, isOnlineData: online, errors: current.errors))]
    }
}

private extension ContentItem {
    /// An item is unchanged when its URL and its hash are.
    var identity: String { url + " " + sha256 }
}
