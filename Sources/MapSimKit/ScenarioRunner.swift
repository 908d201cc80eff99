import MapSim
import MapSimTrace
import Foundation
import Synchronization
import MapSimJSON
import MapSimTrace

/// What running a scenario gave: its trace and the expectations that did not hold.
public struct ScenarioResult: Sendable {
    /// The scenario.
    public var scenario: Scenario
    /// The recorded, redacted trace.
    public var trace: Trace
    /// Expectations and steps that failed, as sentences.
    public var failures: [String]
}

/// Runs scenarios on the simulated network and the virtual clock, so that each gives the same
/// trace on every run and every machine.
public struct ScenarioRunner: Sendable {
    /// Makes a new, empty cache for one run (nil for none).
    public var makeCache: @Sendable () throws -> (any ResourceCache)?
    /// What to remove from traces.
    public var redactor: URLRedactor
    /// Downloads an offline region of a style into a cache, for scenarios that start from one.
    public var downloadRegion: (@Sendable (_ style: String, _ region: Scenario.Region, _ network: any ResourceLoader, _ cache: any ResourceCache) async throws -> Void)?

    /// A runner.
    public init(redactor: URLRedactor = URLRedactor(),
                downloadRegion: (@Sendable (String, Scenario.Region, any ResourceLoader, any ResourceCache) async throws -> Void)? = nil,
                makeCache: @escaping @Sendable () throws -> (any ResourceCache)?) {
        self.redactor = redactor
        self.downloadRegion = downloadRegion
        self.makeCache = makeCache
    }

    /// Runs `scenario` and checks its expectations.
    public func run(_ scenario: Scenario) async throws -> ScenarioResult {
        let cache = scenario.cache == .none ? nil : try makeCache()
        let file = FileResourceLoader(assetRoot: "/")
        if case .warm(let camera) = scenario.cache {
            let warmNetwork = SimulatedNetwork(mirrors: scenario.mirrors, cacheControl: scenario.cacheControl)
            let warmMap = Map(backends: ResourceBackends(file: file, cache: cache, network: warmNetwork), viewport: scenario.viewport,
                              timing: NetworkProfile.named(scenario.profile == "offline" ? "lan" : scenario.profile, seed: scenario.seed)!)
            await warmMap.setCamera(camera ?? scenario.camera)
            await warmMap.setStyleURI(scenario.style)
            _ = await warmMap.run(until: .mapIdle, timeout: .seconds(60))
        }
        if case .region(let region) = scenario.cache {
            guard let downloadRegion, let cache else { throw TraceError("\(scenario.name): this runner cannot download offline regions") }
            try await downloadRegion(scenario.style, region, SimulatedNetwork(mirrors: scenario.mirrors, cacheControl: scenario.cacheControl), cache)
        }
        let network = SimulatedNetwork(mirrors: scenario.mirrors, faults: scenario.faults, cacheControl: scenario.cacheControl)
        var profile = NetworkProfile.named(scenario.profile, seed: scenario.seed)!
        profile.offlineWindows = scenario.offlineWindows
        profile.delays = scenario.faults.compactMap { rule in
            if case .delay(let delay) = rule.effect { (rule.pattern, delay) } else { nil }
        }
        let map = Map(backends: ResourceBackends(file: file, cache: cache, network: network), viewport: scenario.viewport, timing: profile)
        let events = Mutex<[MapEvent]>([])
        let redactor = self.redactor
        let subscription = map.subscribeAll { event in events.withLock { $0.append(redactor.redact(event)) } }
        await map.setCamera(scenario.camera)
        if scenario.profile == "offline" { await map.setOffline(true) }

        var failures: [String] = []
        var stepStarts: [Int] = []
        for (index, step) in scenario.steps.enumerated() {
            stepStarts.append(events.withLock { $0.count })
            switch step {
            case .load:
                await map.setStyleURI(scenario.style)
            case .wait(let state, let timeout):
                switch await map.run(until: state, timeout: timeout) {
                case .reached: break
                case .styleFailed(let message): failures.append("step \(index + 1): waiting for \(state.rawValue): the style failed: \(message)")
                case .timedOut: failures.append("step \(index + 1): \(state.rawValue) not reached within \(timeout)")
                }
            case .advance(let duration):
                await map.advance(by: duration)
            case .camera(let options):
                await map.setCamera(options)
            case .offline:
                await map.setOffline(true)
            case .online:
                await map.setOffline(false)
            }
        }
        subscription.cancel()
        let recorded = events.withLock { $0 }
        failures += Self.check(scenario.expectations, events: recorded, stepStarts: stepStarts)
        return ScenarioResult(scenario: scenario, trace: Trace(header: .init(scenario: scenario.name, seed: scenario.seed), events: recorded),
                              failures: failures)
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
            case .noNetworkAfterStep(let step):
                let start = stepStarts.indices.contains(step - 1) ? stepStarts[step - 1] : events.count
                let sent = events[start...].compactMap { MapEvents.resourceRequest.payload(in: $0.payload) }
                    .filter { $0.dataSource == .network && $0.response?.error?.reason != .inOfflineMode }
                if let first = sent.first {
                    failures.append("expected no network traffic after step \(step), but \(sent.count) request(s) went out, first \(first.request.url)")
                }
            }
        }
        return failures
    }
}
