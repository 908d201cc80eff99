/// The line where each value of a JSON document starts, by JSON path: `""` for the document,
/// `layers[0].paint.fill-color` for a member, `...stops[1][0]` for array elements.
///
/// Paths are kept as 64-bit hashes of their text, built as the reader descends, so recording
/// the lines of a large document costs no string per value.
public struct JSONLineIndex: Sendable {
    /// The FNV-1a hash of a path's text, extended one member or element at a time.
    struct PathHash: Sendable {
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
            member(utf8: key.utf8)
        }

        /// The path of the member whose key is the UTF-8 text `key`.
        func member(utf8 key: some Sequence<UInt8>) -> PathHash {
            var hash = self
            if !isEmpty { hash.feed(CollectionOfOne(UInt8(ascii: "."))) }
            hash.feed(key)
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
    }

    private var table: [UInt64: Int32] = [:]
    /// The text of each number and literal (`true`, `false`, `null`), when kept.
    private var literals: [UInt64: String] = [:]

    /// An empty index.
    public init() {}

    /// The index of a document already known to be valid JSON, read without building its values:
    /// much cheaper than parsing it again when only lines are wanted. With `keepingLiterals` it also
    /// keeps the text of every number as written (`11.0`, `11`, `1.1e1`), for readers that, as
    /// rapidjson's `IsDouble`, tell numbers apart by how they are written.
    public init(scanning bytes: [UInt8], keepingLiterals: Bool = false) {
        var scanner = Scanner(bytes: bytes, keepsLiterals: keepingLiterals)
        scanner.value(at: PathHash())
        table = scanner.table
        literals = scanner.literals
    }

    /// The 1-based line where the value at `path` starts in a valid document, found by one reading
    /// of it that keeps no other line: for a line or two, cheaper than building the index. (Where
    /// two values have the path — a key written twice — it is the later one's, as in the index.)
    public static func line(of path: String, in bytes: [UInt8]) -> Int? {
        var scanner = Scanner(bytes: bytes, keepsLiterals: false, target: PathHash(path).value)
        scanner.value(at: PathHash())
        return scanner.found.map(Int.init)
    }

    /// Walks a valid document, noting the line where each value starts, as `JSONParser` counts lines:
    /// of every value, or only of the value whose path hashes to `target`.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var line = 1
        var table: [UInt64: Int32] = [:]
        let keepsLiterals: Bool
        var literals: [UInt64: String] = [:]
        let target: UInt64?
        var found: Int32?

        init(bytes: [UInt8], keepsLiterals: Bool, target: UInt64? = nil) {
            self.bytes = bytes
            self.keepsLiterals = keepsLiterals
            self.target = target
        }

        mutating func value(at path: PathHash) {
            skipWhitespace()
            guard position < bytes.count else { return }
            if let target {
                if path.value == target { found = Int32(clamping: line) }
            } else {
                table[path.value] = Int32(clamping: line)
            }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                while true {
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { break }
                    let keyStart = position
                    skipString()
                    let raw = bytes[keyStart + 1..<position - 1]
                    let key = raw.contains(UInt8(ascii: "\\"))
                        ? path.member((try? JSONParser.parse(Array(bytes[keyStart..<position])))?.stringValue ?? "")
                        : path.member(utf8: raw)
                    skipWhitespace()
                    position += 1  // ':'
                    value(at: key)
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { break }
                    position += 1
                }
                position += 1  // '}'
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return
                }
                var count = 0
                while true {
                    value(at: path.element(count))
                    count += 1
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { break }
                    position += 1
                }
                position += 1  // ']'
            case UInt8(ascii: "\""):
                skipString()
            default:
                // A number or a literal: up to the next delimiter.
                let start = position
                while position < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
                    position += 1
                }
                if keepsLiterals { literals[path.value] = String(decoding: bytes[start..<position], as: UTF8.self) }
            }
        }

        /// Moves past the string that starts at the current position.
        private mutating func skipString() {
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""): position += 1; return
                case UInt8(ascii: "\\"): position += 2
                default: position += 1
                }
            }
        }

        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x0A: line += 1; position += 1
                case 0x20, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }
    }

    /// The text of the number or literal at `path` as written, when the index keeps literals.
    public func literal(_ path: String) -> String? {
        literals[PathHash(path).value]
    }

    /// The 1-based line where the value at `path` starts, if the document has such a value.
    public func line(_ path: String) -> Int? {
        table[PathHash(path).value].map(Int.init)
    }
}
