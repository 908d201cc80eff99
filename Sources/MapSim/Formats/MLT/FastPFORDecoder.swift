/// Decodes FastPFOR (patched frame of reference, Lemire and Boytsov), the integer codec MLT's
/// encoders may choose for 32-bit streams, as the reference encoders write it: FastPFOR for the
/// values that fill whole blocks of 256, variable-byte for the rest.
///
/// The bytes are big-endian 32-bit words. The first is how many values the FastPFOR part holds (a
/// multiple of 256), which come in pages of up to 65,536. A page starts with the offset of its
/// metadata; the bit-packed blocks follow, then the metadata: its size in bytes, the bytes
/// themselves (for each block its bit width and its number of exceptions, and for a block with
/// exceptions their width and positions) and a bitmap of the widths that have exception values,
/// each such width then with a count and its bit-packed values. An exception is a value too wide for
/// its block: the bits above the block's width are patched in from there. Bits are packed least
/// significant first, 32 values to `width` words.
enum FastPFORDecoder {
    private static let blockSize = 256
    private static let pageSize = 65_536

    /// The `count` values of `bytes`.
    static func decode(_ bytes: ArraySlice<UInt8>, count: Int) throws(MLTFault) -> [UInt32] {
        guard bytes.count % 4 == 0 else { throw MLTFault("is FastPFOR-encoded in \(bytes.count) bytes, not whole 32-bit words") }
        let start = bytes.startIndex
        let words = (0..<(bytes.count / 4)).map { index in
            (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[start + 4 * index + $1]) }
        }
        guard let first = words.first else {
            guard count == 0 else { throw MLTFault("is FastPFOR-encoded in no bytes but claims \(count) values") }
            return []
        }
        let aligned = Int(first)
        guard aligned % blockSize == 0, aligned <= count else {
            throw MLTFault("has \(aligned) FastPFOR values, not a multiple of \(blockSize) within the \(count) it claims")
        }
        var values: [UInt32] = []
        values.reserveCapacity(count)
        var position = 1
        while values.count < aligned {
            position = try decodePage(words, at: position, count: min(pageSize, aligned - values.count), into: &values)
        }
        try decodeVariableBytes(words, from: position, count: count - aligned, into: &values)
        return values
    }

    /// Decodes the page at `start` of `count` values; returns where the next page starts.
    private static func decodePage(_ words: [UInt32], at start: Int, count: Int, into values: inout [UInt32]) throws(MLTFault) -> Int {
        guard start < words.count else { throw MLTFault("ends before a FastPFOR page at word \(start)") }
        let packedEnd = start + Int(words[start])
        guard packedEnd > start, packedEnd < words.count else { throw MLTFault("has a FastPFOR page at word \(start) whose metadata lies outside the stream") }
        let metadataSize = Int(words[packedEnd])
        let bitmapPosition = packedEnd + 1 + (metadataSize + 3) / 4
        guard bitmapPosition < words.count else { throw MLTFault("has a FastPFOR page at word \(start) whose metadata runs past the stream") }
        func metadata(_ index: Int) -> Int { Int(words[packedEnd + 1 + index / 4] >> UInt32(8 * (index % 4)) & 0xFF) }

        // The exception values, by width.
        var exceptions = [[UInt32]](repeating: [], count: 33)
        let bitmap = words[bitmapPosition]
        var position = bitmapPosition + 1
        for width in 2...32 where bitmap >> UInt32(width - 1) & 1 == 1 {
            guard position < words.count else { throw MLTFault("ends inside the FastPFOR exceptions of the page at word \(start)") }
            let exceptionCount = Int(words[position])
            position += 1
            guard exceptionCount <= count else { throw MLTFault("has \(exceptionCount) FastPFOR exceptions in a page of \(count) values") }
            let size = (exceptionCount * width + 31) / 32
            guard position + size <= words.count else { throw MLTFault("ends inside the FastPFOR exceptions of the page at word \(start)") }
            exceptions[width] = unpack(words, from: position, count: exceptionCount, width: width)
            position += size
        }

        var used = [Int](repeating: 0, count: 33)
        var packed = start + 1
        var metadataPosition = 0
        for block in 0..<(count / blockSize) {
            guard metadataPosition + 2 <= metadataSize else { throw MLTFault("ends inside the FastPFOR metadata of block \(block) of the page at word \(start)") }
            let width = metadata(metadataPosition)
            let exceptionCount = metadata(metadataPosition + 1)
            metadataPosition += 2
            guard width <= 32, packed + 8 * width <= packedEnd else { throw MLTFault("has a FastPFOR block \(block) of \(width) bits that does not fit its page at word \(start)") }
            let base = values.count
            values.append(contentsOf: unpack(words, from: packed, count: blockSize, width: width))
            packed += 8 * width
            guard exceptionCount > 0 else { continue }
            guard metadataPosition + 1 + exceptionCount <= metadataSize else { throw MLTFault("ends inside the FastPFOR exceptions of block \(block) of the page at word \(start)") }
            let exceptionWidth = metadata(metadataPosition) - width
            metadataPosition += 1
            guard exceptionWidth >= 1, exceptionWidth <= 32 - width else { throw MLTFault("has FastPFOR exceptions of \(exceptionWidth) bits in block \(block) of the page at word \(start)") }
            guard exceptionWidth == 1 || used[exceptionWidth] + exceptionCount <= exceptions[exceptionWidth].count else {
                throw MLTFault("uses more FastPFOR exceptions of \(exceptionWidth) bits than the page at word \(start) has")
            }
            for _ in 0..<exceptionCount {
                let high = exceptionWidth == 1 ? 1 : exceptions[exceptionWidth][used[exceptionWidth]]
                if exceptionWidth > 1 { used[exceptionWidth] += 1 }
                values[base + metadata(metadataPosition)] |= high << UInt32(width)
                metadataPosition += 1
            }
        }
        guard packed == packedEnd else { throw MLTFault("has a FastPFOR page at word \(start) whose blocks do not fill its packed words") }
        return position
    }

    /// `count` values of `width` bits packed from word `start`, least significant bits first.
    private static func unpack(_ words: [UInt32], from start: Int, count: Int, width: Int) -> [UInt32] {
        guard width > 0 else { return [UInt32](repeating: 0, count: count) }
        let mask: UInt64 = (1 << UInt64(width)) - 1
        return (0..<count).map { index in
            let bit = index * width
            let word = start + bit / 32
            let shift = bit % 32
            var window = UInt64(words[word])
            if shift + width > 32 { window |= UInt64(words[word + 1]) << 32 }
            return UInt32(truncatingIfNeeded: window >> UInt64(shift) & mask)
        }
    }

    /// The variable-byte tail: bytes least significant first in each word, seven bits per byte,
    /// a value ending at a byte whose high bit is set.
    private static func decodeVariableBytes(_ words: [UInt32], from start: Int, count: Int, into values: inout [UInt32]) throws(MLTFault) {
        var byteIndex = start * 4
        for _ in 0..<count {
            var value: UInt32 = 0
            var shift: UInt32 = 0
            while true {
                guard byteIndex < words.count * 4 else { throw MLTFault("ends inside its variable-byte FastPFOR tail") }
                let byte = words[byteIndex / 4] >> UInt32(8 * (byteIndex % 4)) & 0xFF
                byteIndex += 1
                guard shift < 32 else { throw MLTFault("has a variable-byte FastPFOR value longer than five bytes") }
                value |= (byte & 0x7F) << shift
                if byte & 0x80 != 0 { break }
                shift += 7
            }
            values.append(value)
        }
    }
}
