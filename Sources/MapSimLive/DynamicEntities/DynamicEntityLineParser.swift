import MapSim

/// Reads one line of a feed into an observation and when it arrives — by the format's time field
/// (relative to the first line's, divided by the speed) or its fixed interval — or says why it is
/// not one. Lines are read in order: a time that goes back plays at once.
public struct DynamicEntityLineParser: Sendable {
    /// What a line gives.
    public enum Item: Sendable {
        case observation(DynamicEntityFeedLine)
        case malformed(line: Int, reason: String)
    }

    /// The latest a line may play after the first, in microseconds: 100,000 years of virtual time,
    /// far from where the clock's integer microseconds overflow.
    static let latestOffset = 100_000 * 31_557_600_000_000.0

    public let format: DynamicEntityFeedFormat
    private var firstTime: Int64?
    private var lastOffset = SimTime.zero

    /// A parser of lines in `format`.
    public init(format: DynamicEntityFeedFormat) {
        self.format = format
    }

    /// Reads line `number` of the feed.
    public mutating func parse(_ line: [UInt8], number: Int) -> Item {
        var scanner = FeedLineScanner(line, trackIDField: format.trackIDField, timeField: format.timeField)
        let found: FeedLineScanner.Found
        do {
            found = try scanner.scan()
        } catch {
            return .malformed(line: number, reason: error.message)
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
        // The scanner gives a numeric track id as its text.
        guard case .string(let trackID)? = found.trackID else {
            return .malformed(line: number, reason: "no track id: the attribute \"\(format.trackIDField)\" is missing or not a string or number")
        }
        let microseconds: Double
        if let field = format.timeField {
            guard let time = Self.time(found.time) else {
                return .malformed(line: number, reason: "no time: the attribute \"\(field)\" is missing or not an ISO 8601 date and time or milliseconds")
            }
            let first = firstTime ?? time
            firstTime = first
            microseconds = (Double(time) - Double(first)) / format.speed
        } else {
            microseconds = Double(format.interval.microseconds) * Double(number - 1) / format.speed
        }
        guard microseconds <= Self.latestOffset else {
            return .malformed(line: number, reason: "it would play \(Int(microseconds / 31_557_600_000_000)) years after the first line; a feed plays within 100000 years")
        }
        // A feed plays in its order: a time that goes back plays at once.
        var offset = SimTime(microseconds: Int64(max(microseconds, 0).rounded()))
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
