/// Byte-level reading of the ASCII text of URLs and HTTP headers, for the per-request paths of
/// a load and a download: no `Character`s (grapheme breaking), no lowercased copies, no
/// Foundation searches. Non-ASCII bytes never match an ASCII letter, digit or sign.
public enum ASCIIBytes {
    /// Whether `text` begins with `prefix`, byte for byte: compared in place when both are stored
    /// contiguously, as native strings are.
    @inlinable public static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        let compared = text.utf8.withContiguousStorageIfAvailable { text in
            prefix.utf8.withContiguousStorageIfAvailable { prefix in
                prefix.count <= text.count && equal(text, prefix, count: prefix.count)
            }
        }
        return compared.flatMap { $0 } ?? text.utf8.starts(with: prefix.utf8)
    }

    /// Whether `text` contains `needle`, byte for byte.
    @inlinable public static func contains(_ text: String, _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first else { return true }
            let found = text.utf8.withContiguousStorageIfAvailable { text in
                guard text.count >= needle.count else { return false }
                for start in 0...(text.count - needle.count) where text[start] == first {
                    if equal(UnsafeBufferPointer(rebasing: text[start...]), needle, count: needle.count) { return true }
                }
                return false
            }
            if let found { return found }
            var bytes = text.utf8[...]
            while let start = bytes.firstIndex(of: first) {
                let rest = bytes[start...]
                if rest.starts(with: needle) { return true }
                bytes = rest.dropFirst()
            }
            return false
        }
    }

    /// Whether the first `count` bytes of `left` and `right` (each at least that long) are equal:
    /// an index loop, which the generic `elementsEqual` on buffers is several times slower than.
    @inlinable static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, count: Int) -> Bool {
        var index = 0
        while index < count {
            guard left[index] == right[index] else { return false }
            index += 1
        }
        return true
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
