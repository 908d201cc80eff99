import MapSim
import MapSimJSON

/// Reads a feed of observations, one JSON object a line, as the public ArcGIS sample writes them —
/// `{"geometry": {"x": LON, "y": LAT}, "attributes": {"MMSI": …, "BaseDateTime": …, …}}` — or as GeoJSON
/// point features. A line that is not an observation comes back as malformed, with its number and why.
public final class DynamicEntityFeedReader: @unchecked Sendable {
    /// What a line gives.
    public enum Item: Sendable {
        case observation(DynamicEntityFeedLine)
        case malformed(line: Int, reason: String)
    }

    public let format: DynamicEntityFeedFormat
    private let lines: LineReader
    private var number = 0
    private var firstTime: Int64?
    private var lastOffset = SimTime.zero

    /// A reader of the file at `path` (`-` for standard input).
    public init(path: String, format: DynamicEntityFeedFormat) throws(LineReaderError) {
        self.format = format
        lines = try LineReader(path: path)
    }

    /// A reader of `text`.
    public init(text: [UInt8], format: DynamicEntityFeedFormat) {
        self.format = format
        lines = LineReader(bytes: text)
    }

    /// The next line's observation, or why it is not one; nil at the end. Blank lines are skipped.
    public func next() -> Item? {
        while let line = lines.next() {
            number += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            return read(line)
        }
        return nil
    }

    private func read(_ line: [UInt8]) -> Item {
        var scanner = FeedLineScanner(line, trackIDField: format.trackIDField, timeField: format.timeField)
        let found: FeedLineScanner.Found
        do {
            found = try scanner.scan()
        } catch {
            return .malformed(line: number, reason: error.reason)
        }
        let position: (Double, Double)? = if let x = found.x, let y = found.y {
            (x, y)
        } else if found.isPoint, found.coordinates.count >= 2 {
            (found.coordinates[0], found.coordinates[1])
        } else {
            nil
        }
        guard let (longitude, latitude) = position else {
            return .malformed(line: number, reason: "no point geometry ({\"x\": longitude, \"y\": latitude} or GeoJSON coordinates)")
        }
        guard (-180...180).contains(longitude), (-90...90).contains(latitude) else {
            return .malformed(line: number, reason: "the point \(longitude), \(latitude) is not a longitude and latitude")
        }
        let trackID: String
        switch found.trackID {
        case .string(let text)?: trackID = text
        case .number(let number)?: trackID = JSONWriter.formatNumber(number)
        case nil: return .malformed(line: number, reason: "no track id: the attribute \"\(format.trackIDField)\" is missing or not a string or number")
        }
        var offset: SimTime
        if let field = format.timeField {
            guard let time = Self.time(found.time) else {
                return .malformed(line: number, reason: "no time: the attribute \"\(field)\" is missing or not an ISO 8601 date and time or milliseconds")
            }
            let first = firstTime ?? time
            firstTime = first
            offset = SimTime(microseconds: Int64((Double(time - first) / format.speed).rounded()))
        } else {
            offset = SimTime(microseconds: Int64((Double(format.interval.microseconds) * Double(number - 1) / format.speed).rounded()))
        }
        // A feed plays in its order: a time that goes back plays at once.
        offset = max(offset, lastOffset)
        lastOffset = offset
        let observation = DynamicEntityObservation(trackID: trackID, longitude: longitude, latitude: latitude, json: line)
        return .observation(DynamicEntityFeedLine(line: number, offset: offset, observation: observation))
    }

    /// Microseconds since 1970 of an ISO 8601 time (UTC when it has no zone) or of milliseconds.
    private static func time(_ value: FeedLineScanner.Scalar?) -> Int64? {
        switch value {
        case .number(let milliseconds)?:
            return milliseconds.isFinite && abs(milliseconds) < 1e15 ? Int64(milliseconds * 1_000) : nil
        case .string(let text)?:
            return ISO8601Timestamp.microseconds(text) ?? ISO8601Timestamp.microseconds(text + "Z")
        default:
            return nil
        }
    }
}
