import Testing
import MapSim
import MapSimTesting
@testable import MapSimContent

/// The data manager attached to a map: its requests are fetches through the map's pipeline, it reads
/// the manifests served and keeps their ETags, and says what the cache must be written with.
@Suite("ContentSessionMachine")
struct ContentSessionMachineTests {
    private static let location = ContentLocation(styleURL: "https://h/site/style.json")

    private static func item(_ url: String, _ text: String) -> (ContentItem, [UInt8]) {
        let bytes = Array(text.utf8)
        return (ContentItem(url: url, kind: ContentItem.kind(of: url), size: bytes.count, sha256: ContentManifest.sha256(bytes)), bytes)
    }

    private static let style = item("style.json", "{}")
    private static let tile = item("tiles/0/0/0.pbf", "a")
    private static let newTile = item("tiles/0/0/0.pbf", "A")
    private static let version1 = ContentManifest(site: "city", version: 1, items: [style.0, tile.0])
    private static let version2 = ContentManifest(site: "city", version: 2, items: [style.0, newTile.0])

    private static func served(_ manifest: ContentManifest, etag: String?) -> ContentSessionMachine.ServedManifest {
        .init(manifest: manifest, bytes: manifest.json, etag: etag)
    }

    /// The resources of the fetch actions, in order.
    private func fetched(_ actions: [ContentSessionMachine.Action]) -> [Resource] {
        actions.compactMap { if case .fetch(let resource, _, _) = $0 { resource } else { nil } }
    }

    private func events(_ actions: [ContentSessionMachine.Action]) -> [ContentEvent] {
        actions.compactMap { if case .emit(.content(let event)) = $0 { event } else { nil } }
    }

    @Test func aCheckFetchesTheManifestConditionallyThenTheChangedItemsAndAsksForTheWrites() {
        var machine = ContentSessionMachine(location: Self.location, installed: Self.served(Self.version1, etag: "\"v1\""), lastCheck: nil,
                                            configuration: .init())
        let check = machine.handle(.loadData(respectingCachePolicy: false), at: .zero)
        #expect(fetched(check).map(\.url) == ["https://h/site/manifest.json"])
        #expect(fetched(check).first?.prior?.etag == "\"v1\"", "conditional on the installed copy")
        #expect(fetched(check).first?.storagePolicy == .volatile, "the pipeline never caches a content request")

        let manifest = Response(data: Self.version2.json, etag: "\"v2\"", source: .network)
        let items = machine.handle(.manifestFetched(manifest), at: .seconds(1))
        #expect(fetched(items).map(\.url) == ["https://h/site/tiles/0/0/0.pbf"], "only the item whose hash changed")
        #expect(machine.manager.isChecking)

        let done = machine.handle(.itemFetched(Self.newTile.0, .success(Self.newTile.1, source: .network)), at: .seconds(2))
        #expect(!machine.manager.isChecking)
        #expect(events(done).last == .completeAll(site: "city", isSuccessful: true, isOnlineData: true, errors: [:]))
        guard case .install(let installed, let bytes, let etag, let downloaded)? = machine.writes.first else {
            Issue.record("no install asked: \(machine.writes)")
            return
        }
        #expect(installed == Self.version2 && bytes == Self.version2.json && etag == "\"v2\"", "the manifest as served, with its ETag")
        #expect(downloaded == [Self.newTile.0: Self.newTile.1])
        #expect(machine.writes.count == 2, "then the check's time")

        _ = machine.handle(.writesCarriedOut, at: .seconds(2))
        #expect(machine.writes.isEmpty)
        let next = machine.handle(.loadData(respectingCachePolicy: false), at: .seconds(3))
        #expect(fetched(next).first?.prior?.etag == "\"v2\"", "the next check is conditional on what was served last")
    }

    @Test func aConfirmationKeepsTheETagItWasConfirmedWithAndABadManifestIsTheChecksFailure() {
        var machine = ContentSessionMachine(location: Self.location, installed: Self.served(Self.version1, etag: "\"v1\""), lastCheck: nil,
                                            configuration: .init())
        _ = machine.handle(.loadData(respectingCachePolicy: false), at: .zero)
        // The pipeline hands a 304 over as the prior copy, without an ETag of its own.
        let confirmed = machine.handle(.manifestFetched(Response(data: Self.version1.json, notModified: true, source: .network)), at: .seconds(1))
        #expect(events(confirmed).contains(.ready(site: "city", isOnlineData: true)))
        #expect(fetched(machine.handle(.loadData(respectingCachePolicy: false), at: .seconds(2))).first?.prior?.etag == "\"v1\"")

        let broken = machine.handle(.manifestFetched(.success(Array("{\"site\":".utf8), source: .network)), at: .seconds(3))
        guard case .completeAll(_, let successful, _, let errors)? = events(broken).last else {
            Issue.record("the check did not end: \(broken)")
            return
        }
        #expect(!successful && errors["manifest"] != nil, "a manifest that does not read fails the check: \(errors)")
        #expect(!machine.manager.isChecking)
    }

    @Test func attachedToAMapItsRequestsAreTheMapsAndItsEventsFollowTheirAnswers() async {
        let loader = StubLoader()
        loader.serve("https://h/site/manifest.json", data: Self.version2.json)
        loader.serve("https://h/site/tiles/0/0/0.pbf", data: Self.newTile.1)
        let map = Map(backends: .only(loader), timing: FixedLatency(.milliseconds(40)))
        let recorder = EventRecorder(map)
        let id = await map.attach(ContentSessionMachine(location: Self.location, installed: Self.served(Self.version1, etag: nil), lastCheck: nil,
                                                        configuration: .init(clock: map.clock)))
        await map.send(.loadData(respectingCachePolicy: false), to: id)
        #expect(await map.run(id, until: { !$0.manager.isChecking }, notAfter: .seconds(10)))

        let requests = recorder.events(of: .resourceRequest)
        #expect(requests.compactMap { MapEvents.resourceRequest.payload(in: $0.payload)?.request.url } == ["https://h/site/manifest.json", "https://h/site/tiles/0/0/0.pbf"])
        #expect(requests.map(\.end) == [.milliseconds(40), .milliseconds(80)], "one after the other, on the map's clock")
        let complete = recorder.events.last { if case .content(.completeAll) = $0.payload { true } else { false } }
        #expect(complete?.begin == .milliseconds(80), "the check ends when the last item came")
        #expect(await map.attachment(id).writes.count == 2)
    }

    @Test func offlineTheFetchFailsAtOnceAndTheCheckWithIt() async {
        let loader = StubLoader()
        loader.serve("https://h/site/manifest.json", data: Self.version2.json)
        let map = Map(backends: .only(loader), timing: FixedLatency(.milliseconds(40)))
        await map.setOffline(true)
        let id = await map.attach(ContentSessionMachine(location: Self.location, installed: nil, lastCheck: nil, configuration: .init(clock: map.clock)))
        await map.send(.loadData(respectingCachePolicy: false), to: id)
        let outcome = await map.attachment(id).manager.outcome
        #expect(outcome?.errors["manifest"] != nil, "answered within the call that asked: \(String(describing: outcome))")
        #expect(await map.now == .zero)
        #expect(await !map.attachment(id).manager.isChecking)
    }
}
