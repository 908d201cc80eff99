import Foundation
import MapSimTesting
@testable import MapSim

/// Loads a style into a new map at the sample's reference view and runs it.
func loadStyle(_ url: String, camera: CameraOptions = CameraOptions(), viewport: Viewport = Viewport(width: 512, height: 512),
               until state: Map.State = .mapIdle, timeout: SimTime = .seconds(30),
               timing: any DeliveryTiming = ImmediateDelivery(), prepare: (Map) async -> Void = { _ in })
    async -> (map: Map, recorder: EventRecorder, outcome: Map.RunOutcome) {
    let map = Map(loader: FileResourceLoader(assetRoot: SampleStyle.folder), viewport: viewport, timing: timing)
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
    var loadingError: MapLoadingError? {
        if case .mapLoadingError(let error) = self { return error }
        return nil
    }

    var frame: RenderFrameFinished? {
        if case .renderFrameFinished(let frame) = self { return frame }
        return nil
    }

    var request: ResourceRequest? {
        if case .resourceRequest(let request) = self { return request }
        return nil
    }

    var sourceData: SourceDataLoaded? {
        if case .sourceDataLoaded(let data) = self { return data }
        return nil
    }

    var styleData: StyleDataLoaded.Kind? {
        if case .styleDataLoaded(let data) = self { return data.type }
        return nil
    }
}
