import Foundation
import MapSimJSON
import MapSimTesting
import MapSimTrace
@testable import MapSim

/// Traces and files for the page tests: a real load of the sample, a synthetic trace of any size.
enum PageFixtures {
    /// A load of the sample style from its files, recorded.
    static func sampleTrace(camera: CameraOptions = CameraOptions(), options: Map.Options = Map.Options()) async -> Trace {
        let map = Map(backends: ResourceBackends(file: FileResourceLoader(assetRoot: "/"), cache: nil, network: nil), options: options)
        await map.setCamera(camera)
        let recorder = TraceRecorder(header: Trace.Header(scenario: "sample", style: SampleStyle.url, network: "real",
                                                          camera: Trace.Header.camera(camera, viewport: Viewport(width: 512, height: 512))))
        let subscription = recorder.record(map)
        await map.setStyleURI(SampleStyle.url)
        _ = await map.run(until: .mapIdle, timeout: .seconds(60))
        subscription.cancel()
        return recorder.trace
    }

    /// A trace of `count` requests — tiles, some failing, some cancelled, some from the cache —
    /// spread over `count` milliseconds, with the three milestones.
    static func syntheticTrace(requests count: Int) -> Trace {
        var events: [MapEvent] = []
        events.append(request("https://maps.test/style.json", kind: .style, begin: 0, end: 1000, response: .success(Array(repeating: 1, count: 900), source: .network)))
        events.append(MapEvent(begin: .milliseconds(1), end: .milliseconds(1), payload: .styleLoaded))
        for index in 1..<max(count, 1) {
            let z = 14
            let x = index % 1000
            let y = index / 1000
            let begin = Int64(index) * 1000
            let response: Response?
            switch index % 50 {
            case 7: response = .failure(.server, "HTTP 503 server error: tile \(index)", source: .network)
            case 9: response = nil
            case 11: response = Response(data: Array(repeating: 2, count: 300), source: .cache)
            default: response = .success(Array(repeating: 3, count: 500 + index % 300), source: .network)
            }
            events.append(request("https://maps.test/tiles/\(z)/\(x)/\(y).pbf", kind: .tile, begin: begin, end: begin + 40_000, response: response))
        }
        let end = SimTime(microseconds: Int64(count) * 1000 + 50_000)
        events.append(MapEvent(begin: end, end: end, payload: .mapLoaded))
        events.append(MapEvent(begin: end + .milliseconds(300), end: end + .milliseconds(300), payload: .mapIdle))
        return Trace(header: Trace.Header(scenario: "synthetic-\(count)", style: "https://maps.test/style.json", network: "3g"), events: events)
    }

    static func request(_ url: String, kind: Resource.Kind, begin: Int64, end: Int64, response: Response?) -> MapEvent {
        MapEvent(begin: SimTime(microseconds: begin), end: SimTime(microseconds: end),
                 payload: .resourceRequest(ResourceRequest(dataSource: response?.source == .cache ? .database : .network,
                                                           request: Resource(url: url, kind: kind), response: response, cancelled: response == nil)))
    }

    /// The number of request events of `trace`, by kind.
    static func requestsByKind(_ trace: Trace) -> [String: Int] {
        var counts: [String: Int] = [:]
        for event in trace.events {
            if case .resourceRequest(let request) = event.payload { counts[request.request.kind.rawValue, default: 0] += 1 }
        }
        return counts
    }
}
