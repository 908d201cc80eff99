import Foundation
import Testing
import MapSimJSON

@Suite("Scratch files")
struct ScratchFileTests {
    @Test func aScratchFileIsOutOfItsFolderAtOnceAndStillReadsBackWhatWasWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsim-scratch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try ScratchFile(in: folder, prefix: "rows-")
        // Nothing in the folder, while the file lives: a killed process leaves nothing behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try file.write(Array(bytes[..<1]))
        try file.write(Array(bytes[1...]))
        var back = [UInt8](repeating: 0, count: 50_000)
        let first = try file.read(at: 20_000, count: back.count, into: &back)
        #expect(first == 50_000 && back == Array(bytes[20_000..<70_000]))
        #expect(try file.read(at: 70_000, count: back.count, into: &back) == 0)
        // Opened again through its path, as a library that only opens paths does.
        #expect(FileManager.default.contents(atPath: file.reopeningPath) == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aFolderThatIsNotThereIsTheSystemsReason() {
        let error = #expect(throws: ScratchFile.Failure.self) { try ScratchFile(in: "/nonexistent-mapsim-folder", prefix: "x-") }
        #expect(error?.reason == "No such file or directory")
    }
}
