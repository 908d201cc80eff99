import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim region`: offline regions as MapLibre Native has them, in its offline database.
struct RegionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "region",
        abstract: "Download, list, check and manage offline regions in a MapLibre offline database.",
        discussion: """
        A region is what MapLibre Native's OfflineManager keeps: a definition (a style, bounds or a \
        GeoJSON geometry, a zoom range, a pixel ratio, whether CJK ideographs are included) and the \
        resources and tiles downloaded for it, which the ambient cache never evicts. A region's ID \
        is its regions.id in the database. Every subcommand takes --cache (default: \
        \(CacheLocation.defaultDescription)).

        Examples:
          mapsim region download https://maps.example/style.json \\
              --bounds -122.52,37.70,-122.35,37.83 --min-zoom 10 --max-zoom 14 \\
              --cache app.db --description "San Francisco"
          mapsim region list --cache app.db
          mapsim region check 1 --cache app.db
          mapsim region status 1 --cache app.db --json
          mapsim region merge downloaded.db --cache app.db
          mapsim region export 1 --cache app.db --pmtiles sf.pmtiles
        """,
        subcommands: [RegionDownloadCommand.self, RegionListCommand.self, RegionStatusCommand.self, RegionCheckCommand.self,
                      RegionInvalidateCommand.self, RegionDeleteCommand.self, RegionMergeCommand.self, RegionExportCommand.self]
    )

    /// The region `id` of `database`, or the command ends with an error naming the file.
    static func region(_ id: Int64, in database: OfflineDatabase) throws -> OfflineRegion {
        do {
            guard let region = try database.region(id) else {
                throw CacheError(.noSuchRegion, path: database.path, "there is no region \(id) in \(database.path) (`mapsim region list` lists them)")
            }
            return region
        } catch {
            throw ExitStatus.fail(error)
        }
    }

    /// A region as JSON: its id, its definition as stored, and its description — as text when it
    /// is UTF-8, else as hexadecimal bytes.
    static func json(_ region: OfflineRegion) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("id", .number(Double(region.id))), ("definition", .string(region.encodedDefinition))]
        if case .failure(let error) = region.definition { members.append(("definition-error", .string(error.message))) }
        if let text = region.metadataText {
            members.append(("description", .string(text)))
        } else if let bytes = region.metadata {
            members.append(("description-hex", .string(bytes.map { String(format: "%02x", $0) }.joined())))
        }
        return members
    }

    /// The description for people: the text, or its size when it is not UTF-8.
    static func describe(_ region: OfflineRegion) -> String {
        region.metadataText ?? region.metadata.map { "(\($0.count) bytes, not UTF-8)" } ?? ""
    }
}
