import ArgumentParser
import Testing
@testable import MapSimCLI
@testable import MapSimCache
import MapSim
import MapSimStyle

@Suite("Arguments")
struct ArgumentTests {
    @Test func parsesCentresAndSizes() async throws {
        #expect(LngLatArgument(argument: "-122.5,37.8")?.value == LngLat(longitude: -122.5, latitude: 37.8))
        #expect(LngLatArgument(argument: "1, 2")?.value == LngLat(longitude: 1, latitude: 2))
        for bad in ["", "1", "1,2,3", "a,b", "nan,0", "0,inf", " ,2", "1 2,3"] { #expect(LngLatArgument(argument: bad) == nil, "\(bad)") }
        #expect(BoundsArgument(argument: " -122.6, 37.7 ,-122.3,37.9 ")?.value == LngLatBounds(west: -122.6, south: 37.7, east: -122.3, north: 37.9))
        // Every field is a number: one that is not is never passed over for the next.
        for bad in ["1,2,3", "-1,x,1,1,2", "-1,,-0.5,1,2", "-1,-1,1", "-1,nan,1,1", "inf,0,1,1"] {
            #expect(BoundsArgument(argument: bad) == nil, "\(bad)")
        }
        // Four numbers that are no area: the error says which and why.
        for (bad, message) in [("37.7,-122.5,37.9,-122.3", "--bounds: south -122.5 is not a latitude (-90 to 90); the order is west,south,east,north, longitude first"),
                               ("-181,0,1,1", "--bounds: west -181 is not a longitude (-180 to 180)"),
                               ("170,-10,-170,10", "--bounds: west 170 is not west of east -170: an area across the antimeridian (180°) is two, one on each side"),
                               ("1,1,1,2", "--bounds: west 1 is not west of east 1"),
                               ("-1,2.5,1,2.5", "--bounds: south 2.5 is not south of north 2.5")] {
            let bounds = try #require(BoundsArgument(argument: bad))
            #expect { try bounds.check("--bounds") } throws: { "\($0)" == message }
        }
        // Out of range is a usage error that says the range.
        #expect {
            try CameraArguments.validate(center: LngLat(longitude: 181, latitude: 0), zoom: nil, pitch: nil)
        } throws: { error in
            "\(error)" == "--center must be a longitude between -180 and 180 and a latitude between -90 and 90, not 181.0,0.0"
        }
        #expect(SizeArgument(argument: "1920x1080").map { [$0.width, $0.height] } == [1920, 1080])
        #expect(SizeArgument(argument: "512X512") != nil)
        for bad in ["10", "x", "10xa", "1x2x3"] { #expect(SizeArgument(argument: bad) == nil, "\(bad)") }
        // Whole numbers out of range are read, and refused naming the range.
        for outside in ["0x10", "10x-1", "-512x512", "99999x1"] {
            #expect(throws: ValidationError.self, "\(outside)") { try SizeArgument(argument: outside)?.check("--size") }
        }
        #expect { try SizeArgument(argument: "100000x100000")?.check("--size") } throws: {
            "\($0)" == "--size must be WIDTHxHEIGHT with each side from 1 to 16384 pixels, not 100000x100000"
        }
    }

    @Test func durationsTakeTheUnitsPeopleWrite() {
        let cases: [(String, SimTime?)] = [("250ms", .milliseconds(250)), ("1.5s", .milliseconds(1_500)), ("2min", .seconds(120)), ("2 min", .seconds(120)),
                                           ("90", .seconds(90)), ("1h", .seconds(3_600)), ("3 hours", .seconds(10_800)), ("10sec", .seconds(10)),
                                           ("500us", SimTime(microseconds: 500)), ("500µs", SimTime(microseconds: 500)), ("2m", .seconds(120)), ("2MIN", .seconds(120)),
                                           ("1.5 MS", SimTime(microseconds: 1_500)), ("4 msec", .milliseconds(4)), ("2 hrs", .seconds(7_200)), ("1 .5s", .milliseconds(1_500)),
                                           ("", nil), ("-1s", nil), ("2days", nil), ("1e3", nil), ("s", nil), ("nan", nil), ("9000h", nil), ("5 sx", nil), ("٣s", nil)]
        for (text, expected) in cases { #expect(DurationArgument(argument: text)?.time == expected, "\(text)") }
        // A bare number is what the format says: seconds on the command line, milliseconds in a scenario.
        #expect(SimTime(parsing: "500", bareUnit: .milliseconds(1)) == .milliseconds(500))
        #expect(WindowArgument(argument: "3-5")?.value == SimTime.seconds(3)..<SimTime.seconds(5))
        #expect(WindowArgument(argument: "500ms-2s")?.value == SimTime.milliseconds(500)..<SimTime.seconds(2))
        for bad in ["5-3", "3", "3-", "-5", "a-b"] { #expect(WindowArgument(argument: bad) == nil, "\(bad)") }
    }

    @Test func formatsByteCounts() async {
        #expect(ByteCount.format(512) == "512 B")
        #expect(ByteCount.format(2_450) == "2.5 KB")
        #expect(ByteCount.format(1_300_000) == "1.3 MB")
    }

    @Test func colorsOnlyWhenAsked() async {
        #expect(Terminal(usesColor: false).paint("x", .red) == "x")
        #expect(Terminal(usesColor: true).paint("x", .red) == "\u{1B}[31mx\u{1B}[0m")
    }

    @Test func theDownloadProgressNeverGoesBack() {
        let bar = ProgressBar(terminal: Terminal(usesColor: false))
        func status(_ completed: Int, of required: Int) -> OfflineRegionStatus {
            OfflineRegionStatus(completedResourceCount: completed, requiredResourceCount: required)
        }
        #expect(bar.advance(to: ProgressBar.fraction(of: status(3, of: 4))) == 0.75)
        // The TileJSON arrived: 100 more tiles are needed. The work known grew; the bar stays.
        #expect(bar.advance(to: ProgressBar.fraction(of: status(4, of: 104))) == 0.75)
        #expect(bar.advance(to: ProgressBar.fraction(of: status(104, of: 104))) == 1)
    }
}
