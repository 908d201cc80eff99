import ArgumentParser
import MapSim
import MapSimContent
import MapSimKit

/// `mapsim content check STYLE [--force]`: the data manager's version check, once.
struct ContentCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check whether a site published newer content, and download only what changed.",
        discussion: """
        When the site's manifest in the cache is 15 minutes old or more (--max-age), or with \
        --force, makes one conditional request for manifest.json next to STYLE. Only when the \
        server's version is higher are the items whose SHA-256 changed downloaded, checked, \
        and stored as the site's content, pinned in the cache; the previous version is unpinned \
        only then, so a download that fails leaves it whole (and the next check tries again).

        Exit status: 0 checked, skipped or updated; 1 an item failed to download (listed); 69 \
        the server cannot be reached; 74 the cache cannot be opened or written.

        Examples:
          mapsim content check https://maps.test/style.json
          mapsim content check https://maps.test/style.json --force
        """
    )

    @Argument(help: "The style whose site content to check.")
    var style: String

    @Flag(help: "Check whatever the age of the last check.")
    var force = false

    @Option(help: ArgumentHelp("How old the last check may be, in seconds.", valueName: "S"))
    var maxAge = 900

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    func run() async throws {
        let styleURL = StyleLocation.url(for: style)
        let environment = loading.environment(styleURL: styleURL, mapbox: MapboxURL())
        let report: ContentCheck.Report
        do {
            report = try await ContentCheck.run(styleURL: styleURL, environment: environment, force: force, maximumAge: Int64(maxAge))
        } catch {
            await environment.shutdown()
            printError("mapsim: \(error)")
            throw ExitCode(environment.cache == nil ? 74 : 1)
        }
        await environment.shutdown()
        let site = report.site ?? "the site"
        if report.skipped {
            print("\(site): version \(report.version.map(String.init) ?? "?"): checked less than \(maxAge) s ago; nothing requested (--force to check now)")
        } else if !report.changed.isEmpty {
            let bytes = report.changed.reduce(0) { $0 + $1.size }
            print("\(site): version \(report.previousVersion.map(String.init) ?? "none") → \(report.version.map(String.init) ?? "?"): \(report.changed.count) item\(report.changed.count == 1 ? "" : "s") downloaded (\(ByteCount.format(bytes)))")
            for item in report.changed { print("  \(item.kind.rawValue) \(item.url)") }
        } else if report.failures.isEmpty {
            print("\(site): version \(report.version.map(String.init) ?? "?") is the newest")
        }
        for failure in report.failures { printError("mapsim: \(failure)") }
        if report.failures.contains(where: { $0.hasPrefix("manifest ") }) { throw ExitCode(69) }
        if !report.failures.isEmpty {
            printError("mapsim: the previous version is kept whole")
            throw ExitCode(1)
        }
    }
}
