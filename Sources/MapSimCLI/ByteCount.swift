import MapSimKit

/// Byte counts for people: `512 B`, `2.4 KB`, `1.3 MB`.
enum ByteCount {
    static func format(_ bytes: Int) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return oneDecimal(Double(bytes) / 1_000) + " KB" }
        return oneDecimal(Double(bytes) / 1_000_000) + " MB"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
