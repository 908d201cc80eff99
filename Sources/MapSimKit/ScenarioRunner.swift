import Foundation
import MapSim
import MapSimCache
import MapSimContent
import MapSimJSON
import MapSimLive
import MapSimTrace

/// Runs scenarios on the simulated network and the virtual clock, so that each gives the same
/// trace on every run and every machine. Each run starts from a cache of its own, in a temporary
/// folder removed afterwards.
public struct ScenarioRunner: Sendable {
    /// What to remove from traces.
    public var redactor: URLRedactor
    /// Where each run's temporary folder goes.
    public var temporaryDirectory: String

    /// A runner.
    public init(redactor: URLRedactor = URLRedactor(), temporaryDirectory: String = FileManager.default.temporaryDirectory.path) {
        self.redactor = redactor
        self.temporaryDirectory = temporaryDirectory
    }

    /// Runs `scenario` and checks its expectations.
    public func run(_ scenario: Scenario) async throws(ScenarioError) -> ScenarioResult {
        for mirror in scenario.mirrors {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: mirror.directory, isDirectory: &isFolder), isFolder.boolValue else {
                throw ScenarioError(.cannotRun, file: scenario.name,
                                    "mirror \(mirror.prefix): the folder \(mirror.directory) does not exist (every URL under \(mirror.prefix) would be a 404)")
            }
        }
        let folder = temporaryDirectory + "/mapsim-scenario-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ScenarioError(.cannotRun, file: scenario.name, "cannot make the scenario's folder \(folder): \(error.localizedDescription)", underlying: error)
        }
        var mirrors = scenario.mirrors
        if let server = scenario.content?.server {
            // The site is served from a copy, which publish-content changes.
            do {
                try FileManager.default.copyItem(atPath: server, toPath: folder + "/served")
            } catch {
                throw ScenarioError(.cannotRun, file: scenario.name, "cannot copy the content server's folder \(server): \(error.localizedDescription)", underlying: error)
            }
            mirrors.insert(.init(prefix: URLResolver.resolve(".", against: scenario.style), directory: folder + "/served"), at: 0)
        }
        let network = LoadingEnvironment.SimulatedNetworkSetup(preset: scenario.profile, seed: scenario.seed, mirrors: mirrors,
                                                               faults: scenario.faults, cacheControl: scenario.cacheControl,
                                                               offlineWindows: scenario.offlineWindows)
        let engine = Engine.named(scenario.engine)
        let environment = LoadingEnvironment(.init(assetRoot: "/", cache: scenario.cache == .none ? .none : .file(folder + "/cache.db"),
                                                   network: .simulated(network),
                                                   map: Map.Options(loading: .init(maximumConcurrentRequests: engine.requests.maximumConcurrentRequests),
                                                                    engine: engine)),
                                             styleURL: scenario.style)
        let result: Result<ScenarioResult, ScenarioError>
        do {
            result = .success(try await run(scenario, in: environment, served: folder + "/served"))
        } catch {
            result = .failure(error)
        }
        await environment.shutdown()
        return try result.get()
    }

    private func run(_ scenario: Scenario, in environment: LoadingEnvironment, served: String) async throws(ScenarioError) -> ScenarioResult {
        if scenario.cache != .none, environment.cache == nil {
            throw ScenarioError(.cannotRun, file: scenario.name, environment.cacheError.map { "\($0)" } ?? environment.warnings.joined(separator: "; "))
        }
        if case .warm(let camera) = scenario.cache {
            let warm = environment.faultless.makeMap(viewport: scenario.viewport)
            await warm.setCamera(camera ?? scenario.camera)
            await warm.setStyleURI(scenario.style)
            _ = await warm.run(until: .mapIdle, timeout: .seconds(60))
        }
        if case .region(let region) = scenario.cache {
            do {
                let definition = try OfflineRegionDefinition(styleURL: scenario.style, area: .bounds(region.bounds), minZoom: Double(region.minZoom),
                                                             maxZoom: Double(region.maxZoom))
                guard let cache = environment.cache else { throw ScenarioError(.cannotRun, file: scenario.name, "the scenario has no cache") }
                let result = try await environment.faultless.downloadRegion(try cache.createRegion(definition, metadata: nil))
                let problems = result.failures + (result.stopReason.map { [$0] } ?? [])
                guard problems.isEmpty else {
                    throw ScenarioError(.cannotRun, file: scenario.name, "the region download failed: \(problems.joined(separator: "; "))")
                }
            } catch let error as ScenarioError {
                throw error
            } catch {
                throw ScenarioError(.cannotRun, file: scenario.name, "the region download failed: \(error)", underlying: error)
            }
        }
        let map = environment.makeMap(viewport: scenario.viewport)
        let recorder = TraceRecorder(header: Trace.Header(scenario: scenario.name, seed: scenario.seed, engine: scenario.engine.rawValue,
                                                              style: redactor.redact(scenario.style), network: scenario.profile.rawValue,
                                                              camera: Trace.Header.camera(scenario.camera, viewport: scenario.viewport),
                                                              view: Trace.Header.view(style: nil, globalState: scenario.globalState, config: scenario.config)),
                                     redactor: redactor)
        let subscription = recorder.record(map)
        await map.setCamera(scenario.camera)
        for (name, value) in scenario.globalState.members { await map.setGlobalStateProperty(name, value == .null ? nil : value) }
        await Self.setConfig(scenario.config, on: map)
        let live = scenario.live.map { setup in
            LiveSession(map: map, broker: setup.broker, binding: setup.source.map(LiveBinding.init(sourceID:)), seed: scenario.seed,
                        fields: setup.fields, floor: setup.floor)
        }
        let entities = try scenario.entities.map { setup throws(ScenarioError) in try Self.entitySession(setup, map: map, scenario: scenario.name) }
        var content: ContentSession?
        if let setup = scenario.content, let cache = environment.cache {
            content = try await Self.contentSession(setup, map: map, cache: cache, scenario: scenario)
        }

        var failures: [String] = []
        var stepStarts: [Int] = []
        for (index, step) in scenario.steps.enumerated() {
            stepStarts.append(recorder.count)
            switch step {
            case .load:
                if let content, await !content.styleLoadStarting() { continue }
                await map.setStyleURI(scenario.style)
            case .wait(let state, let timeout):
                let outcome = if let live {
                    await live.run(until: state, timeout: timeout)
                } else if let (session, _) = entities {
                    await session.run(until: state, timeout: timeout)
                } else {
                    await map.run(until: state, timeout: timeout)
                }
                switch outcome {
                case .reached: break
                case .styleFailed(let message): failures.append("step \(index + 1): waiting for \(state.rawValue): the style failed: \(message)")
                case .timedOut: failures.append("step \(index + 1): \(state.rawValue) not reached within \(timeout)")
                }
            case .advance(let duration):
                if let live {
                    await live.advance(by: duration)
                } else if let (session, _) = entities {
                    await session.advance(by: duration)
                } else {
                    await map.advance(by: duration)
                }
            case .camera(let options):
                await map.setCamera(options)
            case .setGlobalState(let values):
                for (name, value) in values.members { await map.setGlobalStateProperty(name, value == .null ? nil : value) }
            case .setConfig(let values):
                await Self.setConfig(values, on: map)
            case .offline:
                await map.setOffline(true)
            case .online:
                await map.setOffline(false)
            case .subscribe(let criteria): await live?.subscribe(criteria)
            case .unsubscribe(let criteria): await live?.unsubscribe(criteria)
            case .publish(let update, let delay): await live?.publish(update, delay: delay)
            case .dropConnection: await live?.dropConnection()
            case .stopBroker: await live?.stopBroker()
            case .startBroker: await live?.startBroker()
            case .restartBroker:
                await live?.stopBroker()
                await live?.startBroker()
            case .enableLiveData(let domain):
                do {
                    try await live?.enableLiveData(domain: domain)
                } catch {
                    failures.append("step \(index + 1): \(error)")
                }
            case .disableLiveData(let domain): await live?.disableLiveData(domain: domain)
            case .setFloor(let floor): await live?.setFloor(floor)
            case .connectFeed:
                if let (session, feed) = entities { await session.connect(to: feed) }
            case .disconnectFeed: await entities?.session.disconnect()
            case .outage(let duration): await entities?.session.outage(for: duration)
            case .purgeAll: await entities?.session.purgeAll()
            case .publishContent(let folder):
                do {
                    try Self.publish(folder, over: served)
                } catch {
                    failures.append("step \(index + 1): cannot publish \(folder): \(error.localizedDescription)")
                }
            case .checkContent: _ = await content?.loadData(force: false)
            case .refreshContent: _ = await content?.loadData(force: true)
            }
        }
        subscription.cancel()
        let trace = recorder.trace
        failures += Self.check(scenario.expectations, events: trace.events, stepStarts: stepStarts)
        for case .feature(let expected) in scenario.expectations {
            failures += Self.check(expected, actual: await map.geoJSONFeature(source: expected.source, id: expected.id))
        }
        return ScenarioResult(scenario: scenario, trace: trace, failures: failures)
    }

    /// The data manager of a scenario's site, with its first-run package imported.
    private static func contentSession(_ setup: Scenario.ContentSetup, map: Map, cache: OfflineDatabase, scenario: Scenario) async throws(ScenarioError) -> ContentSession {
        let session = await ContentSession(map: map, cache: cache, styleURL: scenario.style,
                                           configuration: .init(maximumAge: setup.maximumAge ?? ContentDataManager.Configuration.defaultMaximumAge,
                                                                requiresFirstOnlineCheck: setup.requiresFirstOnlineCheck))
        guard let path = setup.package, let keyPath = setup.publicKey else { return session }
        do {
            let key = try ContentSigningKey.publicKey(String(decoding: try InputFile.read(keyPath, limit: 4096), as: UTF8.self))
            _ = try await session.importPackage(try ContentPackage(try InputFile.read(path, limit: 1 << 30), key: key))
        } catch {
            throw ScenarioError(.cannotRun, file: scenario.name, "the content package \(path): \(error)", underlying: error)
        }
        return session
    }

    /// Copies every file below `folder` over the same path below `served`.
    private static func publish(_ folder: String, over served: String) throws {
        let files = FileManager.default.enumerator(atPath: folder)
        while let path = files?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let target = served + "/" + path
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.copyItem(atPath: folder + "/" + path, toPath: target)
        }
    }

    /// The dynamic-entity source of a scenario and its feed, opened.
    private static func entitySession(_ setup: Scenario.EntitiesSetup, map: Map, scenario: String) throws(ScenarioError) -> (session: DynamicEntitySession, feed: DynamicEntityFeedReader) {
        let filter: DynamicEntityFilter
        let feed: DynamicEntityFeedReader
        do {
            filter = try DynamicEntityFilter(condition: setup.filter, bounds: setup.bounds)
            feed = try DynamicEntityFeedReader(path: setup.feed, format: setup.format)
        } catch {
            throw ScenarioError(.cannotRun, file: scenario, "\(error)", underlying: error)
        }
        return (DynamicEntitySession(map: map, options: setup.options, filter: filter, binding: setup.binding), feed)
    }

    static func check(_ expected: Scenario.FeatureExpectation, actual: JSONValue?) -> [String] {
        let name = "feature \(JSONWriter.string(expected.id)) of source \"\(expected.source)\""
        guard let actual else { return ["expected \(name), which does not exist at the end"] }
        var failures: [String] = []
        for (key, value) in expected.properties.members where actual["properties"]?[key] != value {
            failures.append("expected \(name) to have \(key) = \(JSONWriter.string(value)), but it is \(actual["properties"]?[key].map(JSONWriter.string) ?? "absent")")
        }
        if let coordinates = expected.coordinates {
            let held = actual["geometry"]?["coordinates"]?.arrayValue?.compactMap(\.numberValue) ?? []
            if held.count != 2 || zip(held, coordinates).contains(where: { abs($0 - $1) > 1e-6 }) {
                failures.append("expected \(name) at \(coordinates), but it is at \(held)")
            }
        }
        return failures
    }

    /// A failure when any of `events` is a request the network answered (offline refusals are not).
    private static func checkNoNetwork(_ events: ArraySlice<MapEvent>, _ when: String) -> [String] {
        let sent = events.compactMap { MapEvents.resourceRequest.payload(in: $0.payload) }
            .filter { $0.dataSource == .network && $0.response?.error?.reason != .inOfflineMode }
        guard let first = sent.first else { return [] }
        return ["expected no network traffic \(when), but \(sent.count) request(s) went out, first \(first.request.url)"]
    }

    static func check(_ expectations: [Scenario.Expectation], events: [MapEvent], stepStarts: [Int]) -> [String] {
        var failures: [String] = []
        for expectation in expectations {
            switch expectation {
            case .happens(let type):
                if !events.contains(where: { $0.type == type }) { failures.append("expected \(type.rawValue), which never happened") }
            case .never(let type):
                if let event = events.first(where: { $0.type == type }) {
                    failures.append("expected no \(type.rawValue), but one happened at \(event.end): \(JSONWriter.string(.object(event.payload.data)))")
                }
            case .within(let type, let budget):
                if let event = events.first(where: { $0.type == type }) {
                    if event.end > budget { failures.append("\(type.rawValue) came at \(event.end), over the budget of \(budget)") }
                } else {
                    failures.append("expected \(type.rawValue) within \(budget), but it never happened")
                }
            case .budgets(let budgets):
                let summary = events.reduce(into: LoadSummary()) { $0.record($1) }
                failures += budgets.map { $0.check(summary) }.filter { !$0.isMet }.map(\.line)
            case .count(let type, let expected):
                let count = events.count { $0.type == type }
                if count != expected { failures.append("expected \(expected) \(type.rawValue), but \(count) happened") }
            case .feature:
                continue
            case .noNetworkAfterStep(let step):
                let start = stepStarts.indices.contains(step - 1) ? stepStarts[step - 1] : events.count
                failures += Self.checkNoNetwork(events[start...], "after step \(step)")
            case .noNetworkDuringStep(let step):
                let start = stepStarts.indices.contains(step - 1) ? stepStarts[step - 1] : events.count
                let end = stepStarts.indices.contains(step) ? stepStarts[step] : events.count
                failures += Self.checkNoNetwork(events[start..<end], "during step \(step)")
            }
        }
        return failures
    }

    /// Sets config values given by import (`{IMPORT: {NAME: VALUE}}`), null restoring the import's own.
    private static func setConfig(_ values: JSONObject, on map: Map) async {
        for (importID, names) in values.members {
            for (name, value) in names.objectValue?.members ?? [] { await map.setConfigProperty(importID, name, value == .null ? nil : value) }
        }
    }
}
