import Testing
import MapSim
@testable import MapSimContent

/// The data manager's rules, driven directly: the maximum age, forced refresh, changed items only,
/// a version installed only whole, staged while a map is open, the mandatory first check.
@Suite("ContentDataManager")
struct ContentDataManagerTests {
    private static let url = "https://h/manifest.json"
    /// The date at virtual time zero (the manager reckons with the simulated clock by default).
    private static let t0 = WallClock.simulated.start.secondsSince1970

    /// The date `seconds` after virtual time zero.
    private static func date(_ seconds: Int64) -> HTTPDate { HTTPDate(secondsSince1970: t0 + seconds) }

    /// Virtual time `seconds`.
    private static func at(_ seconds: Int64) -> SimTime { .seconds(Double(seconds)) }

    private func item(_ url: String, _ text: String) -> (ContentItem, [UInt8]) {
        let bytes = Array(text.utf8)
        return (ContentItem(url: url, kind: ContentItem.kind(of: url), size: bytes.count, sha256: ContentManifest.sha256(bytes)), bytes)
    }

    private var version1: (ContentManifest, [String: [UInt8]]) {
        let items = [item("style.json", "{}"), item("tiles/0/0/0.pbf", "a"), item("tiles/1/0/0.pbf", "b")]
        return (ContentManifest(site: "city", version: 1, items: items.map(\.0)), Dictionary(uniqueKeysWithValues: items.map { ($0.0.url, $0.1) }))
    }

    private var version2: (ContentManifest, [String: [UInt8]]) {
        let items = [item("style.json", "{}"), item("tiles/0/0/0.pbf", "A"), item("tiles/1/0/0.pbf", "b")]
        return (ContentManifest(site: "city", version: 2, items: items.map(\.0)), Dictionary(uniqueKeysWithValues: items.map { ($0.0.url, $0.1) }))
    }

    @Test func theMaximumAgeIsReckonedOnTheMapsWallClock() {
        let clock = WallClock(start: HTTPDate(secondsSince1970: Self.t0 + 3_600))
        var manager = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(3_000),
                                         configuration: .init(maximumAge: .seconds(900), clock: clock))
        #expect(manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(299)).contains(.requestManifest) == false, "3,899 s: 899 s old")
        var due = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(3_000),
                                     configuration: .init(maximumAge: .seconds(900), clock: clock))
        #expect(due.handle(.loadData(respectingCachePolicy: true), at: Self.at(300)).contains(.requestManifest), "3,900 s: 900 s old")
        var absurd = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: HTTPDate(secondsSince1970: .min),
                                        configuration: .init(clock: clock))
        #expect(absurd.handle(.loadData(respectingCachePolicy: true), at: .zero).contains(.requestManifest), "a check time that overflows is not young")
    }

    private func events(_ actions: [ContentDataManager.Action]) -> [ContentEvent] {
        actions.compactMap { if case .report(let event) = $0 { event } else { nil } }
    }

    @Test func underTheMaximumAgeNothingIsRequestedAndAForcedRefreshIgnoresTheAge() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(0))
        let skipped = manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(899))
        #expect(!skipped.contains(.requestManifest))
        #expect(events(skipped) == [.start(site: "city", isOnlineData: false), .ready(site: "city", isOnlineData: false),
                                    .completeAll(site: "city", isSuccessful: true, isOnlineData: false, errors: [:])])
        #expect(manager.outcome?.skipped == true)
        #expect(manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(900)).contains(.requestManifest), "15 minutes: due")

        var forced = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(0))
        #expect(forced.handle(.loadData(respectingCachePolicy: false), at: Self.at(1)).contains(.requestManifest))
        #expect(forced.handle(.loadData(respectingCachePolicy: false), at: Self.at(2)).isEmpty, "one check at a time")
    }

    @Test func aHigherVersionDownloadsOnlyTheChangedItemsAndIsInstalledWhole() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(0))
        _ = manager.handle(.loadData(respectingCachePolicy: false), at: Self.at(10))
        let (manifest, bytes) = version2
        let asked = manager.handle(.manifestAnswered(.manifest(manifest)), at: Self.at(11))
        guard case .requestItems(let items) = asked.first else { Issue.record("no request: \(asked)"); return }
        #expect(items.map(\.url) == ["tiles/0/0/0.pbf"], "only the item whose hash changed")
        let done = manager.handle(.itemAnswered(items[0], bytes: bytes["tiles/0/0/0.pbf"], failure: nil), at: Self.at(12))
        #expect(done.first == .install(manifest, downloaded: [items[0]: Array("A".utf8)]))
        #expect(done.contains(.recordCheck(at: Self.date(12))))
        #expect(events(done) == [.ready(site: "city", isOnlineData: true), .completeAll(site: "city", isSuccessful: true, isOnlineData: true, errors: [:])])
        #expect(manager.installed == manifest && manager.lastCheck == Self.date(12))
        #expect(manager.outcome?.changed == items && manager.outcome?.previousVersion == 1 && manager.outcome?.version == 2)
    }

    @Test func theSameOrAnOlderVersionDownloadsNothing() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: version2.0, lastCheck: Self.date(0))
        _ = manager.handle(.loadData(respectingCachePolicy: false), at: Self.at(10))
        let actions = manager.handle(.manifestAnswered(.manifest(version1.0)), at: Self.at(11))
        #expect(actions.first == .recordCheck(at: Self.date(11)))
        #expect(!actions.contains { if case .requestItems = $0 { true } else { false } })
        #expect(manager.installed == version2.0)
    }

    @Test func aWrongItemKeepsTheOldVersionAndTheNextLoadChecksAgain() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(-3600))
        _ = manager.handle(.loadData(respectingCachePolicy: false), at: Self.at(10))
        let asked = manager.handle(.manifestAnswered(.manifest(version2.0)), at: Self.at(11))
        guard case .requestItems(let items) = asked.first else { Issue.record("no request: \(asked)"); return }
        let done = manager.handle(.itemAnswered(items[0], bytes: Array("B".utf8), failure: nil), at: Self.at(12))
        #expect(!done.contains { if case .install = $0 { true } else { false } })
        #expect(!done.contains { if case .recordCheck = $0 { true } else { false } })
        guard case .completeAll(_, false, false, let errors) = events(done).last else { Issue.record("\(done)"); return }
        #expect(errors["tiles/0/0/0.pbf"]?.contains("SHA-256") == true)
        #expect(manager.installed == version1.0 && manager.lastCheck == Self.date(-3600))
        #expect(manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(13)).contains(.requestManifest),
                "a failed check is not a completed one: the next load checks again")
    }

    @Test func aVersionThatArrivesWhileAMapIsOpenWaitsForTheNextStyleLoad() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: version1.0, lastCheck: Self.date(0))
        #expect(manager.handle(.styleLoadStarting, at: .zero) == [.allowStyleLoad(true)])
        _ = manager.handle(.loadData(respectingCachePolicy: false), at: Self.at(10))
        let asked = manager.handle(.manifestAnswered(.manifest(version2.0)), at: Self.at(11))
        guard case .requestItems(let items) = asked.first else { Issue.record("no request: \(asked)"); return }
        let done = manager.handle(.itemAnswered(items[0], bytes: Array("A".utf8), failure: nil), at: Self.at(12))
        #expect(!done.contains { if case .install = $0 { true } else { false } }, "the open map keeps version 1")
        #expect(manager.installed == version1.0 && manager.staged?.manifest == version2.0 && manager.outcome?.staged == true)
        #expect(manager.handle(.styleLoadStarting, at: Self.at(13)) == [.install(version2.0, downloaded: [items[0]: Array("A".utf8)]), .allowStyleLoad(true)])
        #expect(manager.installed == version2.0 && manager.staged == nil)
    }

    @Test func theFirstOnlineCheckIsMandatoryWhenRequired() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: nil, lastCheck: nil,
                                         configuration: .init(requiresFirstOnlineCheck: true))
        _ = manager.handle(.packageImported(version1.0), at: .zero)
        _ = manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(0))
        let offline = manager.handle(.manifestAnswered(.failure("offline")), at: Self.at(0))
        #expect(events(offline) == [.completeAll(site: "city", isSuccessful: false, isOnlineData: false, errors: ["manifest": "offline"])])
        let refused = manager.handle(.styleLoadStarting, at: .zero)
        #expect(refused.last == .allowStyleLoad(false))
        guard case .completeAll(_, false, _, let errors) = events(refused).first else { Issue.record("\(refused)"); return }
        #expect(errors["first-online-check"] != nil)
        _ = manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(5))
        _ = manager.handle(.manifestAnswered(.manifest(version1.0)), at: Self.at(6))
        #expect(manager.handle(.styleLoadStarting, at: Self.at(7)) == [.allowStyleLoad(true)], "once a check completed, loads go on")
    }

    @Test func aMandatoryFirstCheckWhoseItemFailedSaysTheServerWasReached() {
        var manager = ContentDataManager(manifestURL: Self.url, installed: nil, lastCheck: nil, configuration: .init(requiresFirstOnlineCheck: true))
        _ = manager.handle(.loadData(respectingCachePolicy: true), at: Self.at(0))
        let asked = manager.handle(.manifestAnswered(.manifest(version1.0)), at: Self.at(1))
        guard case .requestItems(let items) = asked.first else { Issue.record("no request: \(asked)"); return }
        for item in items { _ = manager.handle(.itemAnswered(item, bytes: nil, failure: "HTTP 503"), at: Self.at(2)) }
        let refused = manager.handle(.styleLoadStarting, at: Self.at(3))
        guard case .completeAll(_, false, _, let errors) = events(refused).first else { Issue.record("\(refused)"); return }
        let message = errors["first-online-check"] ?? ""
        #expect(message.contains("sent the manifest") && !message.contains("never been reached"), "\(message)")
    }
}
