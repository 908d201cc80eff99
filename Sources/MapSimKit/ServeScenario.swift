import MapSim
import MapSimServe
import MapSimTrace

/// What `mapsim serve --scenario FILE` takes from a scenario, to put a real client on the wall clock
/// under the network the scenario gives the simulated map: its style; its mirrors, which answer its
/// URLs (served below `/_remote/`); its network profile and seed, fault rules and offline windows;
/// and its `offline` / `online` steps, placed on the timeline its `advance` steps make (a `wait` is
/// the client's and takes no time here; a scenario that starts on the `offline` profile is offline
/// until its first `online`). What the client does itself — load, wait, camera — and the steps of
/// live data, entities and content are not the server's: they are listed as left out.
public struct ServeScenario: Sendable {
    /// The style to serve: a file, or a URL the mirrors answer.
    public var style: String
    /// The network's conditions, in seconds since the server started.
    public var conditions: ServeConditions
    /// The mirrors, as the origin of URLs on other servers; nil when the scenario has none.
    public var origin: SimulatedNetwork?
    /// The spans without network, in time since the server started.
    public var offlineWindows: [Range<SimTime>]
    /// The profile's name.
    public var profile: String
    /// The number of fault rules.
    public var faultCount: Int
    /// The steps that are not the server's, by name, in order, each once.
    public var leftOut: [String]

    /// Offline until this long when a scenario never comes back online: longer than any run.
    public static let forever = SimTime.seconds(100 * 365 * 86_400)

    /// The scenario's network, as `serve` applies it, with `extraFaults` after the scenario's own.
    public init(_ scenario: Scenario, extraFaults: [FaultRule] = []) {
        style = scenario.style
        var windows = scenario.offlineWindows
        var clock = SimTime.zero
        var offlineSince: SimTime? = scenario.profile.startsOffline ? .zero : nil
        var leftOut: [String] = []
        for step in scenario.steps {
            switch step {
            case .advance(let duration):
                clock = clock + duration
            case .offline:
                if offlineSince == nil { offlineSince = clock }
            case .online:
                if let since = offlineSince, since < clock { windows.append(since..<clock) }
                offlineSince = nil
            default:
                if !leftOut.contains(step.keyword) { leftOut.append(step.keyword) }
            }
        }
        if let since = offlineSince { windows.append(since..<Self.forever) }
        offlineWindows = windows.sorted { $0.lowerBound < $1.lowerBound }
        profile = scenario.profile.rawValue
        faultCount = scenario.faults.count + extraFaults.count
        self.leftOut = leftOut
        conditions = ServeConditions(profile: scenario.profile.profile(seed: scenario.seed), profileName: scenario.profile.rawValue,
                                     faults: scenario.faults + extraFaults,
                                     offlineWindows: offlineWindows)
        origin = scenario.mirrors.isEmpty ? nil : SimulatedNetwork(mirrors: scenario.mirrors, cacheControl: scenario.cacheControl)
    }
}
