import ArgumentParser
import Foundation

/// A size in bytes on the command line: `52428800`, `50MB`, `50M`, `512KB`, `1GB` — K, M and G
/// counting in 1024s, as MapLibre's "50 MB" default (52,428,800 bytes) does.
struct ByteSizeArgument: ExpressibleByArgument {
    var bytes: Int

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(suffix: String, factor: Int)] = [("GIB", 1 << 30), ("MIB", 1 << 20), ("KIB", 1 << 10), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10),
                                                      ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
        let number = text.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value.isFinite, value >= 0, value * Double(unit.factor) < 1e15 else { return nil }
        bytes = Int((value * Double(unit.factor)).rounded())
    }

    init(bytes: Int) {
        self.bytes = bytes
    }

    var defaultValueDescription: String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20)MB" : "\(bytes)"
    }
}
