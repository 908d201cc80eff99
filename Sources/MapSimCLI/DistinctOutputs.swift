import ArgumentParser
import Foundation

/// The files one command writes, told apart before it runs: two options naming one file would write
/// over each other, and what one of them wrote would be lost.
enum DistinctOutputs {
    /// Throws a usage error naming the first two options that name one file (through a symbolic link
    /// too); options not given, and `-` (standard output), are left out.
    static func require(_ outputs: [(option: String, path: String?)]) throws {
        var seen: [String: String] = [:]
        for case let (option, path?) in outputs where path != "-" {
            let file = Self.file(path)
            if let earlier = seen[file] {
                throw ValidationError("\(earlier) and \(option) both name \(path): each writes a file of its own, so give each its own path")
            }
            seen[file] = option
        }
    }

    /// The file `path` writes: a symbolic link's target (one not made yet too, which Foundation's
    /// `resolvingSymlinksInPath` leaves as the link), in its folder with links resolved.
    private static func file(_ path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        for _ in 0..<8 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
            url = URL(fileURLWithPath: target, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }
}
