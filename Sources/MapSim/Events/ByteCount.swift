import Foundation

/// Byte counts as people read and write them: `512 B`, `2.4 KB`, `1.3 MB`. KB, MB and GB are SI
/// units (1 KB = 1,000 bytes), as browsers' network panels and Lighthouse show sizes; KiB, MiB and
/// GiB count in 1024s. Every size mapsim prints or reads follows this one rule.
public enum ByteCount {
    /// `bytes` with one decimal in the largest SI unit below it: `512 B`, `2.4 KB`, `1.3 MB`, `4.0 GB`.
    public static func format(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return oneDecimal(Double(bytes) / 1_000) + " KB" }
        if bytes < 1_000_000_000 { return oneDecimal(Double(bytes) / 1_000_000) + " MB" }
        return oneDecimal(Double(bytes) / 1_000_000_000) + " GB"
    }

    /// The bytes `text` gives: a number with an optional unit — `B`, `KB`, `MB`, `GB` (1000s),
    /// `KiB`, `MiB`, `GiB` and, as `dd` and `du` read them, `K`, `M`, `G` (1024s); case-insensitive,
    /// a space allowed before it: `500KB`, `5 MB`, `1.5GiB`, `50M`, `512`. Nil for anything else, a
    /// negative size or one of a petabyte or more. The one reading of sizes every option shares.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, factor: Double)] = [("gib", 1_073_741_824), ("mib", 1_048_576), ("kib", 1_024),
                                                         ("gb", 1e9), ("mb", 1e6), ("kb", 1e3), ("g", 1_073_741_824), ("m", 1_048_576),
                                                         ("k", 1_024), ("b", 1)]
        let unit = units.first { trimmed.hasSuffix($0.suffix) } ?? ("", 1)
        let number = trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number), value.isFinite,
              value * unit.factor < 1e15 else { return nil }
        return Int((value * unit.factor).rounded())
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
