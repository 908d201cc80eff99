import ArgumentParser
import MapSimKit

extension RegionDownloadRun {
    /// `mapsim region download STYLE|ID [OPTIONS]` read without ArgumentParser, or nil when the
    /// arguments are not for `region download`, or hold anything this reader does not take as
    /// ArgumentParser would (help, a mistake, a value that does not parse or does not check): that
    /// is parsed by ArgumentParser, which words it as it always has.
    ///
    /// ArgumentParser's reflection over the command's options took 2–3 ms of the download's
    /// start-up, a tenth of a small region's whole download.
    init?(plainArguments arguments: [String]) {
        guard arguments.starts(with: ["region", "download"]) else { return nil }
        var run = RegionDownloadRun(style: "")
        guard let positional = Self.plainCommandLine.read(arguments.dropFirst(2), into: &run), positional.count == 1 else { return nil }
        run.style = positional[0]
        guard (try? run.loading.validate()) != nil, (try? run.validate()) != nil else { return nil }
        self = run
    }

    /// Every option of `mapsim region download` the plain reader takes, by its long name (and `-q`).
    static let plainCommandLine = PlainCommandLine<RegionDownloadRun>(options: plainOptions.merging(LoadingSettings.plainOptions(within: \.loading)) { own, _ in own },
                                                                      shortNames: ["-q": "--quiet"])

    private static let plainOptions: [String: PlainCommandLine<RegionDownloadRun>.Option] = [
        "--bounds": .value(BoundsArgument.self, unconditional: true) { $0.bounds = $1 },
        "--geometry": .value(String.self) { $0.geometry = $1 },
        "--min-zoom": .value(Double.self, unconditional: true) { $0.minZoom = $1 },
        "--max-zoom": .value(Double.self, unconditional: true) { $0.maxZoom = $1 },
        "--pixel-ratio": .value(Double.self, unconditional: true) { $0.pixelRatio = $1 },
        "--include-ideographs": .flag { $0.includeIdeographs = true },
        "--description": .value(String.self) { $0.description = $1 },
        "--glyphs": .value(RegionDownloader.GlyphChoice.self) { $0.glyphs = $1 },
        "--new": .flag { $0.new = true },
        "--retries": .value(Int.self, unconditional: true) { $0.retries = $1 },
        "--timeout": .value(DurationArgument.self) { $0.timeout = $1 },
        "--mapbox-tile-limit": .value(Int.self, unconditional: true) { $0.mapboxTileLimit = $1 },
        "--events": .value(String.self) { $0.events = $1 },
        "--json": .flag { $0.json = true },
        "--quiet": .flag { $0.quiet = true },
        "--access-token": .value(String.self) { $0.accessToken = $1 },
        "--mapbox-api-url": .value(String.self) { $0.mapboxAPIURL = $1 },
    ]
}
