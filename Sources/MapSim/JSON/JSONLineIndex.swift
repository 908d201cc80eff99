/// The line where each value of a JSON document starts, by JSON path: `""` for the document,
/// `layers[0].paint.fill-color` for a member, `...stops[1][0]` for array elements.
///
/// Paths are kept as 64-bit hashes of their text, built as the reader descends, so recording
/// the lines of a large document costs no string per value.
public struct JSONLineIndex: Sendable {
    /// The FNV-1a hash of a path's text, extended one member or element at a time.
    struct PathHash: Hashable, Sendable {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
        private var isEmpty = true

        init() {}

        /// The hash of the text `path` (as the paths of this index are written).
        init(_ path: String) {
            feed(path.utf8)
            isEmpty = path.isEmpty
        }

        /// The path of the member `key` of this path's object.
        func member(_ key: String) -> PathHash {
            var hash = self
            if !isEmpty { hash.feed(CollectionOfOne(UInt8(ascii: "."))) }
            hash.feed(key.utf8)
            hash.isEmpty = false
            return hash
        }

        /// The path of the element at `index` of this path's array.
        func element(_ index: Int) -> PathHash {
            var hash = self
            hash.feed(CollectionOfOne(UInt8(ascii: "[")))
            hash.feed(String(index).utf8)
            hash.feed(CollectionOfOne(UInt8(ascii: "]")))
            hash.isEmpty = false
            return hash
        }

        private mutating func feed(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }

        static func == (lhs: PathHash, rhs: PathHash) -> Bool { lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    private var table: [UInt64: Int32] = [:]

    /// An empty index.
    public init() {}

    mutating func record(_ line: Int, at path: PathHash) {
        table[path.value] = Int32(clamping: line)
    }

    /// The 1-based line where the value at `path` starts, if the document has such a value.
    public func line(_ path: String) -> Int? {
        table[PathHash(path).value].map(Int.init)
    }
}
