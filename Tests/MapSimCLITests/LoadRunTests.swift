import ArgumentParser
import Foundation
import Testing
@testable import MapSimCLI
import MapSim

@Suite("Load run")
struct LoadRunTests {
    @Test func thePlainReaderGivesTheRunArgumentParserGives() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsim-load-run-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [[String]] = [
            ["style.json"],
            ["style.json", "-q"],
            ["--quiet", "https://maps.test/style.json"],
            ["style.json", "--center", "-122.42,37.78", "--zoom", "11", "--bearing", "-30", "--pitch", "45"],
            ["style.json", "--center=-122.42,37.78", "--zoom=11.5", "--bearing=-30.5", "--pitch=70", "--max-pitch", "85"],
            ["style.json", "--size", "1920x1080", "--pixel-ratio", "2", "--until", "map-loaded", "--timeout", "90s"],
            ["style.json", "--global-state", "lang=\"de\"", "--global-state", "size=3", "--config", "basemap.lightPreset=dusk",
             "--config", "show=true"],
            ["style.json", "--events", "load.jsonl", "--trace", "load.trace.yaml", "--redact", "sig", "--redact", "key2", "--summary", "s.json",
             "--junit", "load.xml"],
            ["style.json", "--fail-on-error", "--budget", "map-idle=2s", "--budget", "bytes=5MB", "--budget=requests.tile=40"],
            ["style.json", "--content", "city.mapsimpkg", "--public-key", "site-key.pub", "--allow-downgrade", "--check-content",
             "--require-first-online-check", "--cache", "\(folder)/cache.db"],
            ["mapbox://styles/mapbox/streets-v12", "--access-token", "pk.test", "--mapbox-api-url", "http://127.0.0.1:9/"],
            ["https://maps.test/style.json", "--network", "3g", "--mirror", "https://maps.test/=\(folder)", "--offline-window", "3-5",
             "--offline-window=500ms-2s", "--seed", "7", "--max-requests", "4", "--max-tiles", "100", "--request-timeout", "1s"],
            ["style.json", "--no-cache", "--offline", "--asset-root", folder, "--engine", "maplibre-gl-js", "--local-ideographs", "none",
             "--mode", "still", "--max-cache-size", "5MB"],
            ["style.json", "--engine=mapbox", "--max-pitch=80", "--pitch=80"],
            ["-", "--zoom", "3"],
        ]
        for arguments in cases {
            let plain = try #require(LoadRun(plainArguments: ["load"] + arguments), "\(arguments)")
            let parsed = try LoadRun(LoadCommand.parse(arguments))
            #expect(dumpedText(plain) == dumpedText(parsed), "\(arguments)")
            #expect(plain.mapbox == parsed.mapbox, "\(arguments)")
        }
        // The defaults are the command's: nothing but a style.
        let bare = try #require(LoadRun(plainArguments: ["load", "style.json"]))
        #expect(bare.timeout.time == .seconds(60) && bare.size.width == 512 && bare.until == .mapIdle && bare.loading.maxTiles == Map.Options.defaultMaximumTilesPerSource)
    }

    @Test func whatThePlainReaderDoesNotTakeGoesToArgumentParser() {
        let refused: [[String]] = [
            ["tiles", "--zoom", "3"],
            ["load"],
            ["load", "--help"],
            ["load", "style.json", "-h"],
            ["load", "style.json", "other.json"],
            ["load", "style.json", "--zoom"],
            ["load", "style.json", "--zoom", "30"],
            ["load", "style.json", "--zoom", "eleven"],
            ["load", "style.json", "--zoom", "3", "--zoom", "4"],
            ["load", "style.json", "--pitch", "70"],
            ["load", "style.json", "--quiet=yes"],
            ["load", "style.json", "--events", "-q"],
            ["load", "style.json", "--until", "map-ready"],
            ["load", "style.json", "--budget", "speed=3"],
            ["load", "style.json", "--network", "5g"],
            ["load", "style.json", "--mirror", "https://maps.test/=/nonexistent-folder", "--network", "3g"],
            ["load", "style.json", "--live", "rooms=mqtt://127.0.0.1:1883", "--criteria", "acme/#"],
            ["load", "style.json", "--content", "city.mapsimpkg"],
            ["load", "style.json", "--", "--zoom"],
            ["load", "style.json", "-qz"],
        ]
        for arguments in refused { #expect(LoadRun(plainArguments: arguments) == nil, "\(arguments)") }
    }

    @Test func thePlainReaderTakesOnlyOptionsTheCommandHasAndAllButTheLiveOnes() throws {
        let help = LoadCommand.helpMessage(columns: 400)
        let regex = try NSRegularExpression(pattern: "^  (?:-[a-z], )?(--[a-z-]+)", options: .anchorsMatchLines)
        let names = Set(regex.matches(in: help, range: NSRange(help.startIndex..., in: help)).compactMap { Range($0.range(at: 1), in: help).map { String(help[$0]) } })
        let live: Set = ["--live", "--criteria", "--live-domain", "--floor", "--location-fields", "--for", "--count", "--username", "--password-file",
                         "--client-id", "--version", "--help"]
        let plain = Set(LoadRun.plainCommandLine.options.keys)
        #expect(plain.subtracting(names).isEmpty, "not options of load: \(plain.subtracting(names).sorted())")
        #expect(names.subtracting(plain).subtracting(live).isEmpty, "not read by the plain reader: \(names.subtracting(plain).subtracting(live).sorted())")
    }
}
