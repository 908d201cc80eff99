import MapSim

/// Reads a feed of observations, one JSON object a line, as the public ArcGIS sample writes them —
/// `{"geometry": {"x": LON, "y": LAT}, "attributes": {"MMSI": …, "BaseDateTime": …, …}}` — or as GeoJSON
/// point features. A line that is not an observation comes back as malformed, with its number and why.
public final class DynamicEntityFeedReader: @unchecked Sendable {
    /// What a line gives.
    public typealias Item = DynamicEntityLineParser.Item

    public let format: DynamicEntityFeedFormat
    private let lines: LineReader
    private var parser: DynamicEntityLineParser
    private var number = 0

    /// A reader of the file at `path` (`-` for standard input).
    public init(path: String, format: DynamicEntityFeedFormat) throws(FeedError) {
        self.format = format
        parser = DynamicEntityLineParser(format: format)
        lines = try LineReader(path: path)
    }

    /// A reader of `text`.
    public init(text: [UInt8], format: DynamicEntityFeedFormat) {
        self.format = format
        parser = DynamicEntityLineParser(format: format)
        lines = LineReader(bytes: text)
    }

    /// The next line's observation, or why it is not one; nil at the end. Blank lines are skipped.
    public func next() -> Item? {
        while let line = lines.next() {
            number += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            return parser.parse(line, number: number)
        }
        return nil
    }
}
