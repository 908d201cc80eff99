import Foundation
import MapSimTesting
@testable import MapSim

/// Loads a style into a new map at the sample's reference view and runs it.
func loadStyle(_ url: String, camera: CameraOptions = CameraOptions(), viewport: Viewport = Viewport(width: 512, height: 512),
               until state: Map.State = .mapIdle, timeout: SimTime = .seconds(30),
               timing: any DeliveryTiming = ImmediateDelivery(), options: Map.Options = Map.Options(), prepare: (Map) async -> Void = { _ in })
    async -> (map: Map, recorder: EventRecorder, outcome: Map.RunOutcome) {
    let map = Map(backends: .only(FileResourceLoader(assetRoot: SampleStyle.folder)), viewport: viewport, options: options, timing: timing)
    let recorder = EventRecorder(map)
    await map.setCamera(camera)
    await prepare(map)
    await map.setStyleURI(url)
    let outcome = await map.run(until: state, timeout: timeout)
    return (map, recorder, outcome)
}

/// A copy of the sample style in a temporary folder, to break on purpose.
func sampleCopy() throws -> FixtureDirectory {
    let fixture = try FixtureDirectory()
    try fixture.copy(folder: SampleStyle.folder, to: "sample")
    return fixture
}

extension MapEventPayload {
    var loadingError: MapLoadingError? { MapEvents.mapLoadingError.payload(in: self) }
    var frame: RenderFrameFinished? { MapEvents.renderFrameFinished.payload(in: self) }
    var request: ResourceRequest? { MapEvents.resourceRequest.payload(in: self) }
    var sourceData: SourceDataLoaded? { MapEvents.sourceDataLoaded.payload(in: self) }
    var styleData: StyleDataLoaded.Kind? { MapEvents.styleDataLoaded.payload(in: self)?.type }
}
