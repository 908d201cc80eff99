import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimJSON
@testable import MapSimTrace

/// A trace read a block at a time reads as the whole file does: the same header and events in the
/// same order, the same first error on the same line, whatever the size of the blocks.
@Suite("Trace read in blocks")
struct TraceReaderTests {
    /// Every event of `reader`, block after block.
    private func events(_ reader: TraceReader) throws -> [MapEvent] {
        var all: [MapEvent] = []
        while let block = try reader.next() { all += block }
        return all
    }

    /// A trace of every kind of event, with blank lines among them, as JSON lines.
    private var text: String {
        let trace = Trace(header: Trace.Header(scenario: "blocks", seed: 3, network: "3g"), events: TraceTests.everyKind)
        return trace.jsonLines.replacingOccurrences(of: "\n{\"type\":\"map-idle\"", with: "\n\n  \n{\"type\":\"map-idle\"")
    }

    @Test(arguments: [1, 7, 100, 4_096, 1 << 22])
    func readsTheEventsAndHeaderAsTheWholeFileDoesWhateverTheBlockSize(blockSize: Int) throws {
        let folder = try FixtureDirectory()
        #expect(text.contains("\n\n  \n"), "blank lines among the events")
        let path = try folder.write("t.jsonl", text)
        let whole = try Trace.read(file: path)
        let reader = try TraceReader(file: path, blockSize: blockSize)
        #expect(reader.header == whole.header)
        #expect(try events(reader).map(\.jsonLine) == whole.events.map(\.jsonLine))
        #expect(try reader.next() == nil, "nothing after the last block")
        // Without a header (an --events file), and without a last newline.
        let plain = try folder.write("plain.jsonl", TraceTests.everyKind.map(\.jsonLine).joined(separator: "\n"))
        let headless = try TraceReader(file: plain, blockSize: blockSize)
        #expect(headless.header == Trace.Header(scenario: plain))
        #expect(try events(headless).map(\.jsonLine) == TraceTests.everyKind.map(\.jsonLine))
    }

    @Test(arguments: [1, 50, 1 << 22])
    func namesTheFirstBadLineAndACutLastLineAsTheWholeFileDoes(blockSize: Int) throws {
        let folder = try FixtureDirectory()
        var lines = (0..<300).map { #"{"type":"map-idle","begin":\#($0),"end":\#($0),"data":{}}"# }
        lines[200] = #"{"type":"map-exploded","begin":0,"end":0}"#
        lines[250] = "not json"
        let bad = try folder.write("bad.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(throws: TraceError(.malformed, file: bad, line: 201, "unknown event type \"map-exploded\"")) {
            _ = try events(TraceReader(file: bad, blockSize: blockSize))
        }
        lines[200] = lines[0]
        lines[250] = lines[0]
        let cut = try folder.write("cut.jsonl", String(lines.joined(separator: "\n").dropLast(5)))
        #expect(throws: TraceError(.malformed, file: cut, line: 300, Trace.cutLastLine)) { _ = try events(TraceReader(file: cut, blockSize: blockSize)) }
        #expect(try events(TraceReader(file: cut, allowTruncated: true, blockSize: blockSize)).count == 299)
    }

    @Test func readsYAMLWholeAndRefusesAnEmptyFileOrAFolder() throws {
        let folder = try FixtureDirectory()
        let trace = Trace(header: Trace.Header(scenario: "yaml"), events: TraceTests.everyKind)
        let path = try folder.write("t.trace.yaml", trace.yaml)
        let reader = try TraceReader(file: path, blockSize: 10)
        #expect(reader.header == trace.header)
        #expect(try events(reader).map(\.jsonLine) == trace.events.map(\.jsonLine))
        let empty = try folder.write("empty.jsonl", " \n\n")
        #expect(throws: TraceError(.unreadable, "\(empty) is empty: not a trace (`mapsim load --trace` and --events always write one)")) {
            _ = try TraceReader(file: empty)
        }
        let blanks = try folder.write("blanks.jsonl", String(repeating: " \n\n", count: 5_000))
        #expect(throws: TraceError(.unreadable, "\(blanks) is empty: not a trace (`mapsim load --trace` and --events always write one)")) {
            _ = try TraceReader(file: blanks, blockSize: 64)
        }
        // Blank lines before the first event: the lines keep their numbers.
        let late = try folder.write("late.jsonl", "\n \n\n{\"type\":\"map-idle\"}\n")
        #expect(throws: TraceError(.malformed, file: late, line: 4, "map-idle without integer \"begin\" and \"end\" (whole microseconds)")) { _ = try events(TraceReader(file: late, blockSize: 2)) }
        #expect(throws: TraceError.self) { _ = try TraceReader(file: folder.path) }
        #expect(throws: TraceError.self) { _ = try TraceReader(file: folder.path + "/missing.jsonl") }
    }
}
