/// Byte-level reading of the ASCII text of URLs and HTTP headers, for the per-request paths of
/// a load and a download: no `Character`s (grapheme breaking), no lowercased copies, no
/// Foundation searches. Non-ASCII bytes never match an ASCII letter, digit or sign.
public enum ASCIIBytes {
    /// Whether `text` begins with `prefix`, byte for byte: compared in place when both are stored
    /// contiguously, as native strings are.
    @inlinable public static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        let compared = text.utf8.withContiguousStorageIfAvailable { text in
            prefix.utf8.withContiguousStorageIfAvailable { prefix in
                prefix.count <= text.count && UnsafeBufferPointer(rebasing: text[..<prefix.count]).elementsEqual(prefix)
            }
        }
        return compared.flatMap { $0 } ?? text.utf8.starts(with: prefix.utf8)
    }

    /// Whether `text` contains `needle`, byte for byte.
    @inlinable public static func contains(_ text: String, _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first else { return true }
            var bytes = text.utf8[...]
            while let start = bytes.firstIndex(of: first) {
                let rest = bytes[start...]
                if rest.starts(with: needle) { return true }
                bytes = rest.dropFirst()
            }
            return false
        }
    }

    /// `byte` as a lowercase ASCII letter when it is an uppercase one.
    @inlinable public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether `bytes` spell `lowercase` (a lowercase ASCII word) in any case.
    @inlinable public static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { wanted in
            bytes.count == wanted.count && zip(bytes, wanted).allSatisfy { lowercased($0) == $1 }
        }
    }

    /// `bytes` without spaces and tabs at either end.
    @inlinable public static func trimmingBlanks<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let start = bytes.drop(while: isBlank)
        guard let last = start.lastIndex(where: { !isBlank($0) }) else { return start[start.startIndex..<start.startIndex] }
        return start[...last]
    }

    /// A decimal integer with an optional sign, as `Int64(String)` reads one; nil for anything else
    /// (no digits, another byte, or too large).
    @inlinable public static func integer(_ bytes: some Collection<UInt8>) -> Int64? {
        var digits = bytes[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
        }
        return value
    }
}
