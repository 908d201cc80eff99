import MapSim
import Foundation
import Yams
import MapSimJSON
import MapSimLive
import MapSimStyle

/// A reproducible situation to run and record: what to load, through which network, from which
/// cache, what to do, and what must (or must not) happen. Written in YAML; see `traces/README.md`.
public struct Scenario: Sendable, Equatable {
    /// One thing to do, in order.
    public enum Step: Sendable, Equatable {
        /// Load the style.
        case load
        /// Run until a state holds (or the step's timeout passes).
        case wait(Map.State, timeout: SimTime)
        /// Let virtual time pass.
        case advance(SimTime)
        /// Move the camera (the fields given change).
        case camera(CameraOptions)
        /// Lose the network.
        case offline
        /// Get it back.
        case online
        /// Subscribe to live-data criteria.
        case subscribe(TopicCriteria)
        /// Unsubscribe from them.
        case unsubscribe(TopicCriteria)
        /// Publish a live update on the simulated broker, held back this much more than the latency.
        case publish(LiveUpdate, delay: SimTime)
        /// The network drops the live-data connection (the broker stays up).
        case dropConnection
        /// The broker stops.
        case stopBroker
        /// The broker starts again.
        case startBroker
        /// The broker stops and starts again at once.
        case restartBroker
        /// MapsIndoors' `enableLiveData(domainType)`: subscriptions follow the view for this domain.
        case enableLiveData(String)
        /// MapsIndoors' `disableLiveData(domainType)`.
        case disableLiveData(String)
        /// Show this floor.
        case setFloor(String)
        /// Connect the dynamic-entity source: its feed starts playing.
        case connectFeed
        /// Disconnect it.
        case disconnectFeed
        /// The feed's network goes down for this long: the connection drops and reconnect attempts fail meanwhile.
        case outage(SimTime)
        /// Empty the dynamic-entity store (it stays connected).
        case purgeAll
        /// Publish new content: copy this folder's files over the served site (new and changed files; the rest stay).
        case publishContent(String)
        /// The data manager's `loadData`, respecting the maximum age.
        case checkContent
        /// The data manager's `loadData` ignoring the maximum age (a forced refresh).
        case refreshContent
        /// Set global state values (null: back to the style's default), as GL JS's
        /// `setGlobalStateProperty`, one name after another.
        case setGlobalState(JSONObject)
        /// Set config values of a Mapbox style's imports, `{IMPORT: {NAME: VALUE}}` ("" for the root
        /// style; null: back to the import's own value), as Mapbox's `setConfigProperty`.
        case setConfig(JSONObject)

        /// The step's name, as scenarios write it.
        public var keyword: String {
            switch self {
            case .load: "load"
            case .wait: "wait"
            case .advance: "advance"
            case .camera: "camera"
            case .offline: "offline"
            case .online: "online"
            case .subscribe: "subscribe"
            case .unsubscribe: "unsubscribe"
            case .publish: "publish"
            case .dropConnection: "drop-connection"
            case .stopBroker: "stop-broker"
            case .startBroker: "start-broker"
            case .restartBroker: "restart-broker"
            case .enableLiveData: "enable-live-data"
            case .disableLiveData: "disable-live-data"
            case .setFloor: "set-floor"
            case .connectFeed: "connect-feed"
            case .disconnectFeed: "disconnect-feed"
            case .outage: "outage"
            case .purgeAll: "purge-all"
            case .publishContent: "publish-content"
            case .checkContent: "check-content"
            case .refreshContent: "refresh-content"
            case .setGlobalState: "set-global-state"
            case .setConfig: "set-config"
            }
        }
    }

    /// What must hold of the recorded events.
    public enum Expectation: Sendable, Equatable {
        /// An event of this type happens.
        case happens(MapEventType)
        /// No event of this type happens.
        case never(MapEventType)
        /// The first event of this type comes within this much virtual time.
        case within(MapEventType, SimTime)
        /// Limits on the run's figures, as `mapsim load --budget` checks them.
        case budgets([LoadBudget])
        /// No request goes to the network after step `n` (1-based) begins.
        case noNetworkAfterStep(Int)
        /// No request goes to the network while step `n` (1-based) runs.
        case noNetworkDuringStep(Int)
        /// Exactly this many events of this type happen.
        case count(MapEventType, Int)
        /// At the end, a feature of a GeoJSON source has these properties (and, for a point, these coordinates).
        case feature(FeatureExpectation)
    }

    /// What a feature must hold at the end of the run.
    public struct FeatureExpectation: Sendable, Equatable {
        /// The GeoJSON source.
        public var source: String
        /// The feature id.
        public var id: JSONValue
        /// Properties it must have, with these values.
        public var properties: JSONObject
        /// The point's coordinates, when given.
        public var coordinates: [Double]?
    }

    /// A dynamic-entity source in the run: its feed, how to read it, what it keeps, where it shows.
    public struct EntitiesSetup: Sendable, Equatable {
        /// The feed file (absolute).
        public var feed: String
        public var format: DynamicEntityFeedFormat
        public var options: DynamicEntityPurgeOptions
        /// The stream filter's condition, a filter expression.
        public var filter: JSONValue?
        /// The stream filter's extent.
        public var bounds: LngLatBounds?
        /// The GeoJSON sources the entities and their tracks show on.
        public var binding: DynamicEntityBinding?
    }

    /// A site's content in the run: the server it is published on, a first-run package, the data manager's settings.
    public struct ContentSetup: Sendable, Equatable {
        /// A folder copied for the run and served at the style's folder URL, so that `publish-content` can change it.
        public var server: String?
        /// A signed content package imported when the run starts (a first run).
        public var package: String?
        /// The public key the package must be signed with.
        public var publicKey: String?
        /// The data manager's maximum age; nil for its default.
        public var maximumAge: SimTime?
        /// Whether style loads are refused until a check has completed once.
        public var requiresFirstOnlineCheck: Bool
    }

    /// Live data in the run: the simulated broker, and the GeoJSON source updates change.
    public struct LiveSetup: Sendable, Equatable {
        /// The GeoJSON source live updates change; nil to change none.
        public var source: String?
        /// How the simulated broker behaves.
        public var broker: SimulatedBroker.Configuration
        /// Which properties of the source's features give a location's topic levels.
        public var fields: LiveLocationFields
        /// The floor shown at first; nil for the lowest.
        public var floor: String?
    }

    /// The cache before the recorded run.
    public enum CacheState: Sendable, Equatable {
        /// No cache entries.
        case empty
        /// Filled by one unrecorded load of the style, at this camera (default: the scenario's).
        case warm(CameraOptions?)
        /// An offline region of the style downloaded beforehand.
        case region(Region)
        /// No cache at all.
        case none
    }

    /// An area and zoom range to download before the run.
    public struct Region: Sendable, Equatable {
        /// The area.
        public var bounds: LngLatBounds
        /// The lowest zoom.
        public var minZoom: Int
        /// The highest zoom.
        public var maxZoom: Int
    }

    /// The scenario's name (its file name without `.scenario.yaml`).
    public var name: String
    /// What it shows, for people.
    public var description: String
    /// The style URL.
    public var style: String
    /// URL prefixes served from folders (resolved against the scenario's folder).
    public var mirrors: [SimulatedNetwork.Mirror]
    /// The engine the scenario simulates (`engine:`; MapLibre Native unless given).
    public var engine: Engine.Name
    /// The simulated network.
    public var profile: NetworkPreset
    /// The seed of the profile's jitter.
    public var seed: UInt64
    /// Misbehaviour of the simulated network.
    public var faults: [FaultRule]
    /// `Cache-Control` the simulated server sends.
    public var cacheControl: String?
    /// Spans of virtual time without a network.
    public var offlineWindows: [Range<SimTime>]
    /// The view.
    public var viewport: Viewport
    /// The camera before loading (fields not given come from the style).
    public var camera: CameraOptions
    /// Global state set over the style's before loading (`global-state`).
    public var globalState = JSONObject()
    /// Config set over a Mapbox style's imports before loading (`config`: `{IMPORT: {NAME: VALUE}}`).
    public var config = JSONObject()
    /// The cache before the run.
    public var cache: CacheState
    /// Live data, when the scenario uses it.
    public var live: LiveSetup?
    /// A dynamic-entity source, when the scenario uses one.
    public var entities: EntitiesSetup?
    /// A site's content and its data manager, when the scenario uses them.
    public var content: ContentSetup?
    /// What to do.
    public var steps: [Step]
    /// What must hold.
    public var expectations: [Expectation]
}

extension Scenario.Step {
    /// Whether the step is about the dynamic-entity source.
    public var isEntities: Bool {
        switch self {
        case .connectFeed, .disconnectFeed, .outage, .purgeAll: true
        default: false
        }
    }

    /// Whether the step is about the site's content.
    public var isContent: Bool {
        switch self {
        case .publishContent, .checkContent, .refreshContent: true
        default: false
        }
    }

    /// Whether the step is about the live data that follows the view.
    public var followsTheView: Bool {
        switch self {
        case .enableLiveData, .disableLiveData, .setFloor: true
        default: false
        }
    }

    /// Whether the step is about live data.
    public var isLive: Bool {
        switch self {
        case .subscribe, .unsubscribe, .publish, .dropConnection, .stopBroker, .startBroker, .restartBroker, .enableLiveData, .disableLiveData,
             .setFloor: true
        case .load, .wait, .advance, .camera, .offline, .online, .connectFeed, .disconnectFeed, .outage, .purgeAll,
             .publishContent, .checkContent, .refreshContent, .setGlobalState, .setConfig: false
        }
    }
}
