import MapSim
import MapSimJSON

/// A trace file read a block of events at a time, so that a trace of any length is read in the
/// memory of one block: JSON lines (`--events` files, what `mapsim serve` records, JSON-lines
/// traces) in blocks of about `blockSize` bytes, each block's lines decoded in parallel; a YAML trace
/// whole (golden traces are small). What is wrong is said as `Trace.read(file:)` says it, of the
/// first line that has it.
public final class TraceReader {
    /// The file as the user named it.
    public let path: String
    /// The trace's header (`Trace.Header(scenario: path)` when the file has none).
    public let header: Trace.Header
    private var source: Source
    private let allowTruncated: Bool

    /// Where the events come from.
    private enum Source {
        /// A YAML trace's events, not yet taken.
        case whole([MapEvent]?)
        /// A JSON-lines file: the bytes read but not yet decoded (the start of a line), the next
        /// line's number, and whether the file's end was read.
        case lines(stream: InputFileStream, pending: [UInt8], nextLine: Int, ended: Bool, blockSize: Int)
    }

    /// Opens `path`: YAML for `.yaml`/`.yml`, JSON lines otherwise; the header is read at once. An
    /// unfinished last line is an error, unless `allowTruncated`, which reads the lines before it.
    public init(file path: String, allowTruncated: Bool = false, blockSize: Int = 4 << 20) throws(TraceError) {
        self.path = path
        self.allowTruncated = allowTruncated
        guard !(path.hasSuffix(".yaml") || path.hasSuffix(".yml")) else {
            let trace = try Trace.read(file: path)
            header = trace.header
            source = .whole(trace.events)
            return
        }
        let stream: InputFileStream
        do {
            stream = try InputFileStream(path, limit: Trace.maximumJSONLinesSize)
        } catch {
            throw TraceError(.unreadable, "\(error)", underlying: error)
        }
        // The first line that is not blank (the header, when it is the file's first line), and the
        // bytes read with it. Blank lines before it are counted and dropped as they are read: a file
        // of blanks is no trace, however long.
        var bytes: [UInt8] = []
        var ended = false
        var blankLines = 0
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        repeat {
            ended = try Self.read(stream, upTo: max(blockSize, 1), appendingTo: &bytes) == false
            let content = bytes.firstIndex { !isBlank($0) } ?? bytes.count
            if let lastBlank = bytes[..<content].lastIndex(of: 0x0A) {
                blankLines += bytes[...lastBlank].count { $0 == 0x0A }
                bytes.removeSubrange(...lastBlank)
            }
        } while !ended && !(bytes.contains { !isBlank($0) } && bytes.contains(0x0A))
        guard bytes.contains(where: { !isBlank($0) }) else {
            throw TraceError(.unreadable, "\(path) is empty: not a trace (`mapsim load --trace` and --events always write one)")
        }
        let firstEnd = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let firstLine = Array(bytes[..<firstEnd])
        var first = Trace.lines(of: firstLine, from: 0, firstNumber: blankLines + 1)
        let found = try Trace.header(of: firstLine, lines: &first, name: path)
        header = found ?? Trace.Header(scenario: path)
        if found != nil { bytes.removeSubrange(..<min(firstEnd + 1, bytes.count)) }
        source = .lines(stream: stream, pending: bytes, nextLine: blankLines + (found == nil ? 1 : 2), ended: ended, blockSize: max(blockSize, 1))
    }

    /// The next block of events, in order; nil after the last.
    public func next() throws(TraceError) -> [MapEvent]? {
        switch source {
        case .whole(let events):
            source = .whole(nil)
            return events
        case .lines(let stream, var bytes, let nextLine, var ended, let blockSize):
            source = .whole(nil)
            // A block ends after a line's newline: read on until there is one, or the file ends.
            while !ended && (bytes.count < blockSize || !bytes.contains(0x0A)) {
                ended = try Self.read(stream, upTo: blockSize, appendingTo: &bytes) == false
            }
            guard !bytes.isEmpty else { return nil }
            // The block is what was read up to its last newline; the rest starts the next one.
            var rest: [UInt8] = []
            if !ended, let lastNewline = bytes.lastIndex(of: 0x0A), lastNewline + 1 < bytes.count {
                rest = Array(bytes[(lastNewline + 1)...])
                bytes.removeSubrange((lastNewline + 1)...)
            }
            let lines = Trace.lines(of: bytes, from: 0, firstNumber: nextLine)
            let events = try Trace.decode(bytes, lines: lines, isFinal: ended, name: path, allowTruncated: allowTruncated)
            if !ended { source = .lines(stream: stream, pending: rest, nextLine: nextLine + lines.count, ended: ended, blockSize: blockSize) }
            return events
        }
    }

    /// `stream.read(upTo:appendingTo:)`, its error a trace's.
    private static func read(_ stream: InputFileStream, upTo count: Int, appendingTo bytes: inout [UInt8]) throws(TraceError) -> Bool {
        do {
            return try stream.read(upTo: count, appendingTo: &bytes)
        } catch {
            throw TraceError(.unreadable, "\(error)", underlying: error)
        }
    }
}
