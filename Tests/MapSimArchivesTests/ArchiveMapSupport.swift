import Foundation
import MapSim
import MapSimArchives
import MapSimTesting

/// Loads `styleURL` into a new map at the sample's view with local files and tile archives (and
/// `network` for remote URLs), and runs it until map-idle.
func loadArchiveStyle(_ styleURL: String, network: (any ResourceLoader)? = nil, camera: CameraOptions = CameraOptions(),
                      offline: Bool = false) async -> (map: Map, recorder: EventRecorder, outcome: Map.RunOutcome) {
    let backends = ResourceBackends(file: FileResourceLoader(assetRoot: SampleStyle.folder), archive: MBTilesResourceLoader(), network: network)
    var options = Map.Options()
    options.loading.startsOffline = offline
    let map = Map(backends: backends, viewport: Viewport(width: 512, height: 512), options: options)
    let recorder = EventRecorder(map)
    await map.setCamera(camera)
    await map.setStyleURI(styleURL)
    let outcome = await map.run(until: .mapIdle, timeout: .seconds(30))
    return (map, recorder, outcome)
}

extension EventRecorder {
    /// The resource requests so far.
    var requests: [ResourceRequest] { payloads(of: MapEvents.resourceRequest) }
    /// The map-loading errors so far.
    var loadingErrors: [MapLoadingError] { payloads(of: MapEvents.mapLoadingError) }
    /// The tiles whose data loaded, as z/x/y.
    var loadedTiles: Set<String> {
        Set(payloads(of: MapEvents.sourceDataLoaded).compactMap { $0.tileID.map { "\($0.z)/\($0.x)/\($0.y)" } })
    }
}
