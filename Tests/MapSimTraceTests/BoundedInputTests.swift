import Foundation
import Testing
import MapSimTesting
@testable import MapSimJSON
@testable import MapSimTrace

/// Inputs get bounded work: a hostile file is a clear error naming it, never a hang or a blow-up.
@Suite("Bounded inputs")
struct BoundedInputTests {
    /// "Billion laughs": ten aliases of ten aliases of ..., 10⁹ values once expanded.
    static let aliasBomb: String = {
        var lines = [#"a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]"#]
        for level in 1..<9 {
            let name = String(UnicodeScalar(UInt8(97 + level)))
            let previous = String(UnicodeScalar(UInt8(96 + level)))
            lines.append("\(name): &\(name) [" + Array(repeating: "*" + previous, count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func aYAMLAliasBombIsRefusedWithTheFileAndLine() throws {
        #expect { try Scenario.parse("style: x\nsteps: [load]\n" + Self.aliasBomb, name: "bomb", folder: "/", file: "bomb.scenario.yaml") } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("bomb.scenario.yaml:") && message.contains("expands to more than 1000000 values")
        }
        #expect { try Trace.read(yaml: "mapsim: 0.1.0\nscenario: x\n" + Self.aliasBomb + "events: []\n", name: "bomb.trace.yaml") } throws: { error in
            (error as? TraceError)?.line != nil && "\(error)".contains("YAML aliases")
        }
    }

    @Test func deepNestingIsRefusedBeforeItIsParsed() {
        let deep = "style: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        #expect(throws: ScenarioError(.malformed, file: "deep.yaml:1", "nested deeper than 256 levels")) {
            try Scenario.parse(deep, name: "deep", folder: "/", file: "deep.yaml")
        }
        // Brackets inside quoted text are text.
        #expect(throws: Never.self) { try YAMLReader.read("a: \"" + String(repeating: "[", count: 1_000) + "\"\n") }
    }

    @Test func aFileIsReadWithinItsLimitOrRefusedSayingWhy() throws {
        let fixture = try FixtureDirectory()
        let path = try fixture.write("big.json", String(repeating: " ", count: 2_000))
        #expect(try InputFile.read(path, limit: 2_000).count == 2_000)
        #expect(throws: InputFileError(.tooLarge, path: path, "it has 2000 bytes, more than the limit of 1999")) { try InputFile.read(path, limit: 1_999) }
        #expect(throws: InputFileError(.isDirectory, path: fixture.path, "it is a directory")) { try InputFile.read(fixture.path, limit: 10) }
        #expect(throws: InputFileError(.missing, path: fixture.path + "/none", "there is no such file")) { try InputFile.read(fixture.path + "/none", limit: 10) }
        // Read straight into a buffer of the file's size: every byte, in order, an empty file too.
        let bytes = (0..<70_001).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let binary = fixture.path + "/bytes.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: binary))
        #expect(try InputFile.read(binary, limit: 70_001) == bytes)
        #expect(try InputFile.read(try fixture.write("empty.json", ""), limit: 10).isEmpty)
        #if os(Linux)
        // A regular file whose size says 0 but which has content, as the kernel's files do, is read whole.
        let status = try InputFile.read("/proc/self/status", limit: 1 << 20)
        #expect(String(decoding: status, as: UTF8.self).contains("Name:"))
        #endif
    }
}
