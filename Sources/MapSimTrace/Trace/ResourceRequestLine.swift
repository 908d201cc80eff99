import MapSim
import MapSimStyle

/// Reads the commonest line of a JSON-lines trace — a `resource-request` event, nine of ten lines
/// of a large trace — straight from its bytes, without building its JSON values first.
///
/// It reads only what it is sure of: the members `MapEvent(json:)` reads, each once, strings whose
/// escapes are the simple ones, whole numbers. Anything else (another event, an unknown or repeated
/// member, a fraction, a `\u` escape, a value `MapEvent(json:)` would refuse) is left to
/// `MapEvent(json:)`, which reads it or says what is wrong with it. What it reads is the event
/// `MapEvent(json:)` would read (a test holds the two to the same events).
struct ResourceRequestLine {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    /// The event of the line at `range` of `bytes`, or nil when it is not one this reader is sure of.
    static func event(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> MapEvent? {
        var line = ResourceRequestLine(bytes, range: range)
        guard let event = line.event() else { return nil }
        line.skipWhitespace()
        return line.position == line.end ? event : nil
    }

    /// The members each object may have, in the order the cases below number them.
    private static let eventKeys = keys("type", "begin", "end", "data")
    private static let requestKeys = keys("data-source", "request", "response", "cancelled")
    private static let resourceKeys = keys("url", "kind", "priority", "loading-method", "range", "import")
    private static let rangeKeys = keys("from", "to")
    private static let responseKeys = keys("source", "no-content", "not-modified", "must-revalidate", "size", "modified", "expires", "etag", "error")
    private static let failureKeys = keys("reason", "message")

    private static func keys(_ names: String...) -> [[UInt8]] {
        names.map { Array($0.utf8) }
    }

    private mutating func event() -> MapEvent? {
        var isRequest = false
        var begin: Int64?
        var end: Int64?
        var payload: ResourceRequest?
        let read = object(Self.eventKeys) { line, key in
            switch key {
            case 0:
                isRequest = line.string() == MapEventType.resourceRequest.rawValue
                return isRequest
            case 1:
                begin = line.integer()
                return begin != nil
            case 2:
                end = line.integer()
                return end != nil
            default:
                payload = line.request()
                return payload != nil
            }
        }
        guard read, isRequest, let begin, let end, let payload else { return nil }
        return MapEvent(begin: SimTime(microseconds: begin), end: SimTime(microseconds: end), payload: .resourceRequest(payload))
    }

    /// The `data` of a resource-request event.
    private mutating func request() -> ResourceRequest? {
        var dataSource: DataSource?
        var resource: Resource?
        var response: Response?
        var cancelled: Bool?
        let read = object(Self.requestKeys) { line, key in
            switch key {
            case 0:
                dataSource = line.string().flatMap(DataSource.init(rawValue:))
                return dataSource != nil
            case 1:
                resource = line.resource()
                return resource != nil
            case 2:
                response = line.response()
                return response != nil
            default:
                cancelled = line.bool()
                return cancelled != nil
            }
        }
        guard read, let dataSource, let resource, let cancelled else { return nil }
        return ResourceRequest(dataSource: dataSource, request: resource, response: response, cancelled: cancelled)
    }

    private mutating func resource() -> Resource? {
        var url: String?
        var kind: Resource.Kind?
        var priority: Resource.Priority?
        var loadingMethod: Resource.LoadingMethod?
        var dataRange: ClosedRange<UInt64>?
        var scope: StyleScope?
        let read = object(Self.resourceKeys) { line, key in
            switch key {
            case 0:
                url = line.string()
                return url != nil
            case 1:
                kind = line.string().flatMap(Resource.Kind.init(rawValue:))
                return kind != nil
            case 2:
                priority = line.string().flatMap(Resource.Priority.init(rawValue:))
                return priority != nil
            case 3:
                loadingMethod = line.methods()
                return loadingMethod != nil
            case 4:
                dataRange = line.range()
                return dataRange != nil
            default:
                scope = line.string().map(StyleScope.init(parsing:))
                return scope != nil
            }
        }
        guard read, let url, let kind else { return nil }
        var resource = Resource(url: url, kind: kind)
        if let priority { resource.priority = priority }
        if let loadingMethod { resource.loadingMethod = loadingMethod }
        resource.dataRange = dataRange
        if let scope { resource.scope = scope }
        return resource
    }

    /// `["cache", "network"]`: the names other than these two count for nothing.
    private mutating func methods() -> Resource.LoadingMethod? {
        skipWhitespace()
        guard take(UInt8(ascii: "[")) else { return nil }
        var method: Resource.LoadingMethod = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return method }
        while true {
            guard let name = string() else { return nil }
            if name == "cache" { method.insert(.cache) }
            if name == "network" { method.insert(.network) }
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return method }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// `{"from": FIRST, "to": LAST}`; without `to`, to the end.
    private mutating func range() -> ClosedRange<UInt64>? {
        var from: Int64?
        var to: Int64?
        let read = object(Self.rangeKeys) { line, key in
            if key == 0 { from = line.integer() } else { to = line.integer() }
            return (key == 0 ? from : to) != nil
        }
        guard read, let from, from >= 0 else { return nil }
        guard let to else { return UInt64(from)...UInt64.max }
        return to >= from ? UInt64(from)...UInt64(to) : nil
    }

    private mutating func response() -> Response? {
        var source: Response.Source?
        var noContent = false
        var notModified = false
        var mustRevalidate = false
        var size: Int64 = 0
        var modified: HTTPDate?
        var expires: HTTPDate?
        var etag: String?
        var failure: Response.Failure?
        let read = object(Self.responseKeys) { line, key in
            switch key {
            case 0:
                source = line.string().flatMap(Response.Source.init(rawValue:))
                return source != nil
            case 1, 2, 3:
                guard let flag = line.bool() else { return false }
                if key == 1 { noContent = flag } else if key == 2 { notModified = flag } else { mustRevalidate = flag }
            case 4:
                guard let value = line.integer(), (0...Int64(Int32.max)).contains(value) else { return false }
                size = value
            case 5, 6:
                // A date that does not read is no date, as `MapEvent(json:)` takes it.
                guard let text = line.string() else { return false }
                if key == 5 { modified = HTTPDate(rfc1123: text) } else { expires = HTTPDate(rfc1123: text) }
            case 7:
                etag = line.string()
                return etag != nil
            default:
                failure = line.failure()
                return failure != nil
            }
            return true
        }
        guard read, let source else { return nil }
        var response = Response(source: source)
        response.noContent = noContent
        response.notModified = notModified
        response.mustRevalidate = mustRevalidate
        // A trace keeps the size of the data, not the data.
        if size > 0 { response.recordedSize = Int(size) }
        response.modified = modified
        response.expires = expires
        response.etag = etag
        response.error = failure
        return response
    }

    private mutating func failure() -> Response.Failure? {
        var reason: Response.Failure.Reason?
        var message: String?
        let read = object(Self.failureKeys) { line, key in
            if key == 0 {
                reason = line.string().flatMap(Response.Failure.Reason.init(rawValue:))
                return reason != nil
            }
            message = line.string()
            return message != nil
        }
        guard read, let reason else { return nil }
        return Response.Failure(reason: reason, message: message ?? "")
    }

    // MARK: - JSON

    /// An object of the members `keys` names, each read by `member` (with its number in `keys`)
    /// after its key and colon; false when the object is not well formed, a key is not in `keys` or
    /// repeats, or `member` says false.
    private mutating func object(_ keys: [[UInt8]], _ member: (inout ResourceRequestLine, Int) -> Bool) -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return true }
        var seen: UInt32 = 0
        while true {
            guard let key = key(among: keys), seen & (1 << key) == 0 else { return false }
            seen |= 1 << key
            skipWhitespace()
            guard take(UInt8(ascii: ":")), member(&self, key) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// The number in `keys` of the key (a string without escapes) at the position.
    private mutating func key(among keys: [[UInt8]]) -> Int? {
        skipWhitespace()
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < end, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") { position += 1 }
        guard position < end, bytes[position] == UInt8(ascii: "\"") else { return nil }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<position])
        position += 1
        return keys.firstIndex { $0.elementsEqual(key) }
    }

    /// A string whose escapes are the one-letter ones; nil for anything else.
    private mutating func string() -> String? {
        skipWhitespace()
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                defer { position += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            case UInt8(ascii: "\\"):
                return escapedString(from: start)
            case 0..<0x20:
                return nil
            default:
                position += 1
            }
        }
        return nil
    }

    /// The rest of a string from `start` that has an escape at `position`.
    private mutating func escapedString(from start: Int) -> String? {
        var text = Array(bytes[start..<position])
        while position < end {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < end else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// A whole number of at most 15 digits (exact as the double JSON makes of it); nil for a
    /// fraction, an exponent, a leading zero.
    private mutating func integer() -> Int64? {
        skipWhitespace()
        let negative = take(UInt8(ascii: "-"))
        let start = position
        var value: Int64 = 0
        while position < end, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
            guard position - start <= 15 else { return nil }
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if position < end, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") { return nil }
        return negative ? -value : value
    }

    private mutating func bool() -> Bool? {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - position >= count else { return false }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
        position += count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < end, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < end {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            position += 1
        }
    }
}
