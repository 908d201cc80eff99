#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSimTrace

/// Output files are written as Unix tools write them: never through a path we do not own.
@Suite("OutputFile")
struct OutputFileTests {
    @Test func aRegularFileIsReplacedWholeAndKeepsItsPermissions() throws {
        let fixture = try FixtureDirectory()
        let path = try fixture.write("out.json", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try OutputFile.write("new", to: path, format: .anyFile)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path) == ["out.json"], "no temporary file is left")
    }

    @Test func aFileNotClosedLeavesTheOldOneWhole() throws {
        let fixture = try FixtureDirectory()
        let path = try fixture.write("out.json", "old")
        do {
            let file = try OutputFile(path: path, format: .anyFile)
            try file.write(Array("half of the new".utf8))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path) == ["out.json"])
    }

    @Test func aSymbolicLinkIsFollowedToItsTargetAndKept() throws {
        let fixture = try FixtureDirectory()
        let target = try fixture.write("target.json", "old")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/link.json", withDestinationPath: "target.json")
        try OutputFile.write("new", to: fixture.path + "/link.json", format: .anyFile)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: fixture.path + "/link.json") == "target.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        // A dangling link gets its target created.
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/dangling.json", withDestinationPath: fixture.path + "/made.json")
        try OutputFile.write("made", to: fixture.path + "/dangling.json", format: .anyFile)
        #expect(try String(contentsOfFile: fixture.path + "/made.json", encoding: .utf8) == "made")
    }

    @Test func aFIFOIsWrittenThroughNotReplaced() throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        // Opening a FIFO blocks until both ends are open: the reader gets a thread of its own, never
        // one of the concurrency pool's, which the tests share.
        let received = Mutex("")
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
            received.withLock { $0 = String(decoding: data, as: UTF8.self) }
            done.signal()
        }
        try OutputFile.write("through the pipe", to: path, format: .anyFile)
        done.wait()
        #expect(received.withLock { $0 } == "through the pipe")
        var info = stat()
        #expect(stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func aDeviceNodeIsWrittenThroughNotReplaced() throws {
        let fixture = try FixtureDirectory()
        let path = fixture.path + "/null"
        // A null device of our own, in a temporary folder (never a system one); making it needs root,
        // which CI has. Elsewhere the FIFO test stands for every file that is not a regular one.
        guard mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 else { return }
        try OutputFile.write("into the void", to: path, format: .anyFile)
        var info = stat()
        #expect(stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aFileThatIsNotOneOfOursIsRefusedAndLeftAsItIs() throws {
        let fixture = try FixtureDirectory()
        let style = try fixture.write("style.json", #"{"version": 8, "sources": {}, "layers": []}"#)
        let refusal = "\(style) exists and is not a mapsim events file (JSON lines, each an event): mapsim replaces only a file of its own, so it was left as it is (remove it, or give another path)"
        #expect(throws: TraceError(.cannotWrite, file: style, refusal)) { _ = try EventLineWriter(path: style) }
        #expect(throws: TraceError.self) { try OutputFile.write("<html></html>", to: style, format: .page) }
        #expect(try String(contentsOfFile: style, encoding: .utf8) == #"{"version": 8, "sources": {}, "layers": []}"#)
        // Through a link, the target is what is judged, and kept.
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/events.jsonl", withDestinationPath: "style.json")
        #expect(throws: TraceError.self) { _ = try EventLineWriter(path: fixture.path + "/events.jsonl") }
        #expect(try String(contentsOfFile: style, encoding: .utf8).hasPrefix(#"{"version""#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path).sorted() == ["events.jsonl", "style.json"], "nothing else is left")
    }

    @Test func aFileOfOursOrAnEmptyOneIsReplaced() throws {
        let fixture = try FixtureDirectory()
        let events = try fixture.write("run.jsonl", #"{"type": "map-idle", "begin": 1, "end": 1, "data": {}}"# + "\n")
        let writer = try EventLineWriter(path: events)
        try writer.close()
        #expect(try String(contentsOfFile: events, encoding: .utf8).isEmpty)
        let empty = try fixture.write("empty.yaml", "")
        try OutputFile.write(Trace(header: .init(scenario: "s"), events: []).yaml, to: empty, format: .trace)
        try OutputFile.write(Trace(header: .init(scenario: "t"), events: []).yaml, to: empty, format: .trace)
        #expect(try String(contentsOfFile: empty, encoding: .utf8).contains("scenario: t"))
        let page = try fixture.write("report.html", "<!doctype html>\n<meta name=\"generator\" content=\"mapsim 0.0.1\">")
        try OutputFile.write("<!doctype html>\n<meta name=\"generator\" content=\"mapsim 0.1.0\">\nnew", to: page, format: .page)
        #expect(try String(contentsOfFile: page, encoding: .utf8).hasSuffix("new"))
    }

    @Test func aMissingFolderOrADirectoryIsNamedWithTheReason() {
        #expect(throws: TraceError(.cannotWrite, file: "/nonexistent/x.json", "cannot write: the folder /nonexistent does not exist")) {
            try OutputFile.write("x", to: "/nonexistent/x.json", format: .anyFile)
        }
        #expect(throws: TraceError(.cannotWrite, file: "/tmp", "cannot write: it is a directory")) { try OutputFile.write("x", to: "/tmp", format: .anyFile) }
    }
}

@Suite("FilePath")
struct FilePathTests {
    @Test func splitsPathsWithoutFoundation() {
        #expect(FilePath.folder(of: "k") == "." && FilePath.name(of: "k") == "k")
        #expect(FilePath.folder(of: "/k") == "/" && FilePath.folder(of: "a/b/c.json") == "a/b" && FilePath.name(of: "a/b/c.json") == "c.json")
        #expect(FilePath.join("a/b", "c") == "a/b/c" && FilePath.join("/", "c") == "/c" && FilePath.join("a", "/abs") == "/abs")
    }
}
