import ArgumentParser
import Foundation
import Testing
@testable import MapSimCLI

@Suite("Region download run")
struct RegionDownloadRunTests {
    private static let area = ["--bounds", "-122.52,37.70,-122.35,37.83", "--min-zoom", "10", "--max-zoom", "14"]

    @Test func thePlainReaderGivesTheRunArgumentParserGives() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsim-download-run-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [[String]] = [
            ["style.json"] + Self.area,
            ["https://maps.test/style.json", "-q", "--cache", "\(folder)/app.db"] + Self.area,
            ["--quiet", "--bounds=-122.5,37.7,-122.3,37.9", "--min-zoom=8", "--max-zoom=inf", "style.json", "--json"],
            ["style.json", "--geometry", "route.geojson", "--min-zoom", "8", "--max-zoom", "inf", "--glyphs", "needed",
             "--local-ideographs", "none", "--events", "download.jsonl"],
            ["style.json", "--pixel-ratio", "2", "--include-ideographs", "--description", "San Francisco", "--new", "--retries", "0",
             "--timeout", "10min", "--mapbox-tile-limit", "6000", "--request-timeout", "5s", "--max-requests", "8"] + Self.area,
            ["mapbox://styles/mapbox/streets-v12", "--engine", "mapbox", "--access-token", "pk.test", "--mapbox-api-url",
             "http://127.0.0.1:9/"] + Self.area,
            ["3", "--cache", "\(folder)/app.db"],
        ]
        for arguments in cases {
            let plain = try #require(RegionDownloadRun(plainArguments: ["region", "download"] + arguments), "\(arguments)")
            let parsed = RegionDownloadRun(try RegionDownloadCommand.parse(arguments))
            #expect(dumpedText(plain) == dumpedText(parsed), "\(arguments)")
        }
        // The defaults are the command's: the style and the area.
        let bare = try #require(RegionDownloadRun(plainArguments: ["region", "download", "style.json"] + Self.area))
        #expect(bare.retries == 3 && bare.pixelRatio == 1 && bare.glyphs == .all && bare.timeout == nil && !bare.quiet)
    }

    @Test func whatThePlainReaderDoesNotTakeGoesToArgumentParser() {
        let refused: [[String]] = [
            ["region", "list"],
            ["load", "style.json"],
            ["region", "download"],
            ["region", "download", "--help"],
            ["region", "download", "style.json", "-h"] + Self.area,
            ["region", "download", "style.json", "other.json"] + Self.area,
            ["region", "download", "style.json"],
            ["region", "download", "style.json", "--bounds", "-122.5,37.7,-122.3,37.9", "--min-zoom", "10"],
            ["region", "download", "style.json", "--max-zoom"] + Self.area.prefix(4),
            ["region", "download", "style.json", "--retries", "three"] + Self.area,
            ["region", "download", "style.json", "--retries", "1", "--retries", "2"] + Self.area,
            ["region", "download", "style.json", "--glyphs", "some"] + Self.area,
            ["region", "download", "style.json", "--timeout", "-1s"] + Self.area,
            ["region", "download", "style.json", "--events", "-q"] + Self.area,
            ["region", "download", "style.json", "--quiet=yes"] + Self.area,
            ["region", "download", "style.json", "--offline"] + Self.area,
            ["region", "download", "style.json", "--engine", "maplibre-gl-js"] + Self.area,
            ["region", "download", "style.json", "--network", "5g"] + Self.area,
            ["region", "download", "3", "--bounds", "-122.5,37.7,-122.3,37.9"],
            ["region", "download", "style.json", "--", "--json"] + Self.area,
            ["region", "download", "style.json", "-qj"] + Self.area,
        ]
        for arguments in refused { #expect(RegionDownloadRun(plainArguments: arguments) == nil, "\(arguments)") }
    }

    @Test func thePlainReaderTakesEveryOptionTheCommandHasAndNoOther() throws {
        let help = RegionDownloadCommand.helpMessage(columns: 400)
        let regex = try NSRegularExpression(pattern: "^  (?:-[a-z], )?(--[a-z-]+)", options: .anchorsMatchLines)
        let names = Set(regex.matches(in: help, range: NSRange(help.startIndex..., in: help)).compactMap { Range($0.range(at: 1), in: help).map { String(help[$0]) } })
        let plain = Set(RegionDownloadRun.plainCommandLine.options.keys)
        #expect(plain.subtracting(names).isEmpty, "not options of region download: \(plain.subtracting(names).sorted())")
        #expect(names.subtracting(plain).subtracting(["--version", "--help"]).isEmpty, "not read by the plain reader: \(names.subtracting(plain).sorted())")
    }
}
