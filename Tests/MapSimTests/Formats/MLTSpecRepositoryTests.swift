import Foundation
import Testing
@testable import MapSim

/// Every fixture of a checkout of maplibre/maplibre-tile-spec, when `MLT_SPEC_REPOSITORY` names one:
/// the tiles converted from MVT compared with their originals, the synthetic tiles with their
/// expected JSON. Not run by default; the fixtures this repository may redistribute are in
/// `Fixtures/MLT` and `MLTTileTests` runs them.
@Suite("MLTTile.SpecRepository", .enabled(if: ProcessInfo.processInfo.environment["MLT_SPEC_REPOSITORY"] != nil))
struct MLTSpecRepositoryTests {
    private let root = ProcessInfo.processInfo.environment["MLT_SPEC_REPOSITORY"] ?? ""

    private func files(in folder: String, ending suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted().map { folder + "/" + $0 }
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
    }

    /// Bing's tiles say they are MVT version 3, which mapsim's MVT decoder refuses: read as version 2.
    private func asVersion2(_ bytes: [UInt8]) throws -> [UInt8] {
        var patched = bytes
        var tile = ProtobufReader(bytes)
        while !tile.isAtEnd {
            let field = try tile.nextField()
            guard field.number == 3, field.type == .lengthDelimited else { try tile.skip(field.type); continue }
            var layer = try tile.message()
            while !layer.isAtEnd {
                let start = layer.position
                let inner = try layer.nextField()
                let value = inner.type == .varint ? try layer.varint() : nil
                if inner.type != .varint { try layer.skip(inner.type) }
                // Field 15 (the version) has a one-byte key; its value follows.
                if inner.number == 15, value == 3 { patched[start + 1] = 2 }
            }
        }
        return patched
    }

    @Test func convertedTilesMatchTheirOriginals() throws {
        var report: [String] = []
        var artifacts: [String: Int] = [:]
        for family in ["simple", "omt", "bing", "amazon", "amazon_here"] {
            for path in files(in: "test/expected/tag0x01/" + family, ending: ".mlt") {
                let name = (path as NSString).lastPathComponent.replacingOccurrences(of: ".mlt", with: ".mvt")
                do {
                    let decoded = try MLTTile.decode(try bytes(path))
                    let original = try VectorTile.decode(try asVersion2(try bytes("test/fixtures/\(family)/\(name)")))
                    let differences = MLTFixtureComparison.differences(decoded, original)
                    for difference in differences { if let artifact = difference.artifact { artifacts["\(family): \(artifact.rawValue)", default: 0] += 1 } }
                    let unexplained = differences.filter { $0.artifact == nil }
                    if !unexplained.isEmpty { report.append("\(path): \(unexplained.count) differences: \(unexplained.prefix(4))") }
                } catch {
                    report.append("\(path): \(error)")
                }
            }
        }
        print("MLT spec fixtures, differences the converter made:", artifacts.sorted { $0.key < $1.key })
        #expect(report.isEmpty, "\(report.count) tiles differ:\n\(report.joined(separator: "\n"))")
    }

    @Test func syntheticTilesMatchTheirExpectedJSON() throws {
        var report: [String] = []
        var count = 0
        for folder in ["test/synthetic/0x01", "test/synthetic/0x01-rust"] {
            for path in files(in: folder, ending: ".mlt") {
                count += 1
                do {
                    let decoded = try MLTTile.decode(try bytes(path))
                    let expected = try MLTFixtureComparison.tile(fromExpectedJSON: try bytes(path.replacingOccurrences(of: ".mlt", with: ".json")))
                    let differences = MLTFixtureComparison.differences(decoded, expected)
                    if !differences.isEmpty { report.append("\(path): \(differences.prefix(3))") }
                } catch {
                    report.append("\(path): \(error)")
                }
            }
        }
        #expect(count > 300)
        #expect(report.isEmpty, "\(report.count) of \(count) synthetic tiles differ:\n\(report.joined(separator: "\n"))")
    }
}
