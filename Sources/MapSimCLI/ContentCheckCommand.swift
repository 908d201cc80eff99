import ArgumentParser
import MapSimKit

/// `mapsim content check STYLE [--force]`: the data manager's version check, once.
struct ContentCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        // Parsed as a root by `mapsim content check` (MapSimCommand.leafCommand): "mapsim content" is its super-command.
        _superCommandName: "mapsim content",
        abstract: "Check whether a site published newer content, and download only what changed.",
        discussion: """
        When the last completed check of the site is 15 minutes old or more (--max-age), or with \
        --force, makes one conditional request for manifest.json next to STYLE. Only when the \
        server's version is higher are the items whose SHA-256 changed downloaded, checked, \
        and stored as the site's content, pinned in the cache; the previous version is unpinned \
        only then, so a download that fails leaves it whole (and the next check tries again). \
        The time of each completed check is kept in the cache.

        --events writes the data manager's events (content-start, content-ready, \
        content-complete-all) and its requests (resource-request) as JSON lines; --json prints \
        what the check did as one JSON object.

        \(ExitStatus.section([(ExitStatus.success, "checked, skipped or updated"), (ExitStatus.failure, "an item failed to download (listed)"), (ExitStatus.unavailable, "the manifest cannot be had (offline, unreachable, an HTTP error, not a manifest)"), (ExitStatus.cannotWrite, "the cache cannot be opened or written, or --events cannot be written")]))

        Examples:
          mapsim content check https://maps.test/style.json
          mapsim content check https://maps.test/style.json --force --json
          mapsim content check https://maps.test/style.json --max-age 60 \\
              --events check.jsonl
        """
    )

    @Argument(help: "The style whose site content to check.")
    var style: String

    @Flag(help: "Check whatever the age of the last check.")
    var force = false

    @Option(parsing: .unconditional, help: ArgumentHelp("How old the last check may be (15min, 900; a bare number is seconds; default: \(ContentDataManager.Configuration.defaultMaximumAge.shortDescription)).", valueName: "DURATION"))
    var maxAge: DurationArgument?

    /// The maximum age asked for, or the data manager's default.
    private var maximumAge: SimTime {
        maxAge?.time ?? ContentDataManager.Configuration.defaultMaximumAge
    }

    @Option(help: ArgumentHelp("Write the data manager's events and requests to FILE as JSON lines (- for standard output).", valueName: "FILE"))
    var events: String?

    @Flag(help: "Print what the check did as one JSON object.")
    var json = false

    @OptionGroup(title: "Loading")
    var loading: LoadingOptions

    func validate() throws {
        guard maximumAge <= .seconds(31_536_000) else { throw ValidationError("--max-age must be at most a year (31536000 s)") }
        if json && events == "-" { throw ValidationError("--json and --events - both write to standard output; give --events a file") }
    }

    func run() async throws {
        let styleURL = StyleLocation.url(for: style)
        let environment = try loading.settings.environment(styleURL: styleURL, mapbox: MapboxURL())
        guard let cache = environment.cache else {
            await environment.shutdown()
            throw ExitStatus.fail(ExitStatus.cannotWrite, "a content check needs a cache, and none could be opened: \(environment.warnings.joined(separator: "; "))")
        }
        let writer: EventLineWriter?
        do {
            writer = try events.map { try EventLineWriter(path: $0) }
        } catch {
            await environment.shutdown()
            throw ExitStatus.fail(error)
        }
        let map = environment.makeMap()
        let subscription = map.subscribeAll { writer?.write($0) }
        let session = await ContentSession(map: map, cache: cache, styleURL: styleURL, configuration: .init(maximumAge: maximumAge))
        let outcome = await session.loadData(force: force)
        subscription.cancel()
        for warning in await environment.shutdown() { printError("mapsim: warning: \(warning)") }
        do {
            try writer?.close()
        } catch {
            throw ExitStatus.fail(error)
        }
        let site = await session.site
        if json {
            print(JSONWriter.string(.object(Self.json(outcome, site: site))))
        } else {
            report(outcome, site: site)
        }
        if outcome.errors["cache"] != nil { throw ExitStatus.cannotWrite }
        if outcome.errors["manifest"] != nil { throw ExitStatus.unavailable }
        if !outcome.errors.isEmpty {
            if !json { printError("mapsim: the previous version is kept whole") }
            throw ExitStatus.failure
        }
    }

    private func report(_ outcome: ContentDataManager.Outcome, site: String) {
        let version = outcome.version.map(String.init) ?? "none"
        if outcome.skipped {
            print("\(site): version \(version): checked less than \(maximumAge.shortDescription) ago; nothing requested (--force to check now)")
        } else if !outcome.changed.isEmpty {
            let bytes = outcome.changed.reduce(0) { $0 + $1.size }
            print("\(site): version \(outcome.previousVersion.map(String.init) ?? "none") → \(version): \(outcome.changed.count) item\(outcome.changed.count == 1 ? "" : "s") downloaded (\(ByteCount.format(bytes)))")
            for item in outcome.changed { print("  \(item.kind.rawValue) \(item.url)") }
        } else if outcome.errors.isEmpty {
            print("\(site): version \(version) is the newest")
        }
        for (key, message) in outcome.errors.sorted(by: { $0.key < $1.key }) {
            printError("mapsim: \(key == "manifest" || key == "cache" ? key : "item \(key)"): \(message)")
        }
    }

    /// `{site, previous-version, version, skipped, changed: [{url, kind, size}], errors: {…}}`.
    static func json(_ outcome: ContentDataManager.Outcome, site: String) -> JSONObject {
        func version(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
        let changed = outcome.changed.map { item in
            JSONValue.object(JSONObject([("url", .string(item.url)), ("kind", .string(item.kind.rawValue)), ("size", .number(Double(item.size)))]))
        }
        let errors = JSONObject(outcome.errors.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        return JSONObject([("site", .string(site)), ("previous-version", version(outcome.previousVersion)), ("version", version(outcome.version)),
                           ("skipped", .bool(outcome.skipped)), ("changed", .array(changed)), ("errors", .object(errors))])
    }
}
