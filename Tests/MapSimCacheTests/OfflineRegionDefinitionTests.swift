import Foundation
import Testing
@testable import MapSim
@testable import MapSimCache
@testable import MapSimStyle

@Suite("OfflineRegionDefinition")
struct OfflineRegionDefinitionTests {
    private let pyramid = try! OfflineRegionDefinition(styleURL: "http://127.0.0.1:8765/style.json",
                                                       area: .bounds(LngLatBounds(west: -122.62, south: 37.7, east: -122.28, north: 37.9)),
                                                       minZoom: 0, maxZoom: 11)

    @Test func encodesAsMapLibreNativeDoes() throws {
        // What MapLibre Native (mapli 0.4.1) stores for this definition.
        #expect(pyramid.encoded == #"{"style_url":"http://127.0.0.1:8765/style.json","min_zoom":0.0,"max_zoom":11.0,"pixel_ratio":1.0,"include_ideographs":false,"bounds":[37.7,-122.62,37.9,-122.28]}"#)
        var unbounded = pyramid
        unbounded.maxZoom = .infinity
        unbounded.includeIdeographs = true
        #expect(unbounded.encoded == #"{"style_url":"http://127.0.0.1:8765/style.json","min_zoom":0.0,"pixel_ratio":1.0,"include_ideographs":true,"bounds":[37.7,-122.62,37.9,-122.28]}"#)
        let ratio = try OfflineRegionDefinition(styleURL: "s", area: .bounds(.world), minZoom: 1.5, maxZoom: 3, pixelRatio: 1.3)
        #expect(ratio.encoded.contains(#""pixel_ratio":1.2999999523162842"#), "a 32-bit float, as MapLibre holds it")
        let line = try OfflineRegionDefinition(styleURL: "s", area: .geometry(.lineString([LngLat(longitude: 13.4, latitude: 52.5), LngLat(longitude: 2, latitude: 48.85)])),
                                               minZoom: 0, maxZoom: 1)
        #expect(line.encoded.hasSuffix(#""geometry":{"type":"LineString","coordinates":[[13.4,52.5],[2.0,48.85]]}}"#), "\(line.encoded)")
    }

    @Test(arguments: [(0.0, "0.0"), (11, "11.0"), (-0.5, "-0.5"), (0.001, "0.001"), (0.000001, "0.000001"), (1e-7, "1e-7"), (123456.25, "123456.25"),
                      (1e21, "1e21"), (1e20, "100000000000000000000.0"), (1.5e300, "1.5e300"), (-122.62, "-122.62"), (85.0511287798066, "85.0511287798066")])
    func writesDoublesAsRapidJSON(value: Double, text: String) {
        #expect(OfflineRegionDefinition.double(value) == text)
    }

    @Test func anIndependentReaderReadsWhatIsWritten() throws {
        let polygon = GeoJSONGeometry.polygon([[LngLat(longitude: -1, latitude: -1), LngLat(longitude: 1, latitude: -1), LngLat(longitude: 1, latitude: 1),
                                                LngLat(longitude: -1, latitude: -1)]])
        for definition in [pyramid, try OfflineRegionDefinition(styleURL: "mapbox://styles/u/s", area: .geometry(polygon), minZoom: 2.5, maxZoom: .infinity,
                                                                 pixelRatio: 2, includeIdeographs: true)] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(definition.encoded.utf8)) as? [String: Any])
            #expect(object["style_url"] as? String == definition.styleURL)
            #expect(object["min_zoom"] as? Double == definition.minZoom && object["pixel_ratio"] as? Double == definition.pixelRatio)
            #expect((object["max_zoom"] as? Double) == (definition.maxZoom.isFinite ? definition.maxZoom : nil))
            #expect(object["include_ideographs"] as? Bool == definition.includeIdeographs)
            if case .bounds(let bounds) = definition.area {
                #expect(object["bounds"] as? [Double] == [bounds.south, bounds.west, bounds.north, bounds.east])
            } else {
                let geometry = try #require(object["geometry"] as? [String: Any])
                #expect(geometry["type"] as? String == "Polygon" && (geometry["coordinates"] as? [[[Double]]])?.first?.count == 4)
            }
            #expect(try OfflineRegionDefinition(decoding: definition.encoded) == definition, "read back as it was")
        }
    }

    @Test func decodesAsMapLibreNativeDoes() throws {
        let minimal = try OfflineRegionDefinition(decoding: #"{"style_url":"s","min_zoom":1.0,"pixel_ratio":2.0,"bounds":[10.0,20.0,-10.0,-20.0]}"#)
        #expect(minimal.maxZoom == .infinity && minimal.includeIdeographs, "no max_zoom is every zoom; include_ideographs defaults to true")
        #expect(minimal.area == .bounds(LngLatBounds(west: -20, south: -10, east: 20, north: 10)), "the hull of the two corners")
        let refused: [(String, String)] = [
            (#"{"style_url":"s","min_zoom":0,"pixel_ratio":1.0,"bounds":[0.0,0.0,1.0,1.0]}"#, "min_zoom must be written as a double"),
            (#"{"style_url":"s","min_zoom":0.0,"pixel_ratio":1.0,"bounds":[0,0.0,1.0,1.0]}"#, "bounds[0] must be written as a double"),
            (#"{"min_zoom":0.0,"pixel_ratio":1.0,"bounds":[0.0,0.0,1.0,1.0]}"#, "style_url must be a string"),
            (#"{"style_url":"s","min_zoom":0.0,"pixel_ratio":1.0}"#, "neither bounds nor geometry"),
            (#"{"style_url":"s","min_zoom":0.0,"pixel_ratio":1.0,"include_ideographs":1,"bounds":[0.0,0.0,1.0,1.0]}"#, "include_ideographs must be true or false"),
            (#"{"style_url":"s","min_zoom":3.0,"max_zoom":2.0,"pixel_ratio":1.0,"bounds":[0.0,0.0,1.0,1.0]}"#, "not a zoom range"),
            (#"{"style_url":"s","min_zoom":0.0,"pixel_ratio":1.0,"geometry":{"type":"Line","coordinates":[]}}"#, "not a GeoJSON geometry type"),
            (#"content:site@3"#, "not JSON"),
        ]
        for (text, reason) in refused {
            #expect {
                _ = try OfflineRegionDefinition(decoding: text)
            } throws: { error in
                (error as? OfflineRegionDefinitionError)?.message.contains(reason) == true
            }
        }
    }

    @Test func coversZoomsAsMapLibresCoveringZoomRange() throws {
        var definition = try OfflineRegionDefinition(styleURL: "s", area: .bounds(.world), minZoom: 2.5, maxZoom: 9.5)
        #expect(definition.tileZooms(of: TilePyramid(rounding: .floor, minZoom: 0, maxZoom: 14)) == 2...9)
        #expect(definition.tileZooms(of: TilePyramid(rounding: .round, tileSize: 256, minZoom: 0, maxZoom: 14)) == 4...11, "raster 256: +1, rounded")
        #expect(definition.tileZooms(of: TilePyramid(rounding: .floor, minZoom: 5, maxZoom: 8)) == 5...8, "within the source's zooms")
        #expect(definition.tileZooms(of: TilePyramid(rounding: .floor, minZoom: 12, maxZoom: 14)) == nil)
        definition.maxZoom = .infinity
        #expect(definition.tileZooms(of: TilePyramid(rounding: .floor, minZoom: 0, maxZoom: 14)) == 2...14, "unbounded: every zoom the source has")
    }
}
