import CByteSearch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var finder = PathFinder(bytes: bytes, target: Array(path.utf8))
        finder.value(matching: 0)
        return finder.found
    }

    /// Walks a valid document for the line of one path, going into only the values on the way to
    /// it: every other value is skipped by its brackets, counting lines, without a path of its own.
    /// Once the path is found, the walk ends as soon as no later member can have it again.
    private struct PathFinder {
        var cursor: LineCursor
        /// The path's text, as `PathHash` hashes it.
        let target: [UInt8]
        var found: Int?
        /// The members walked into on the way to the target, outermost first: each key up to its
        /// first dot or bracket, which any other key that has the target's path there starts with
        /// (`a.b` is the path of the member `a.b` and of the member `b` of `a`).
        private var leads: [ArraySlice<UInt8>] = []
        /// Whether no value after the cursor can have the target's path: the rest is not read.
        private var isSettled = false

        init(bytes: [UInt8], target: [UInt8]) {
            cursor = LineCursor(bytes: bytes)
            self.target = target
        }

        /// Reads the value at the cursor, whose path is the first `matched` bytes of
        /// the target.
        mutating func value(matching matched: Int) {
            cursor.skipWhitespace()
            guard cursor.position < cursor.bytes.count else { return }
            if matched == target.count {
                // Its members' paths are longer: none is the target. A later value of the same
                // path (a key written twice) still wins, as in the index.
                found = cursor.line
                return skipValue()
            }
            switch cursor.bytes[cursor.position] {
            case UInt8(ascii: "{"):
                cursor.position += 1
                while let key = cursor.memberKey() {
                    if let next = member(key, after: matched) {
                        leads.append(key.prefix { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "[") })
                        value(matching: next)
                        settleIfFound()
                        leads.removeLast()
                        if isSettled { return }
                    } else {
                        cursor.skipWhitespace()
                        skipValue()
                    }
                    guard cursor.takeComma() else { break }
                }
                cursor.position += 1  // '}'
            case UInt8(ascii: "["):
                if cursor.takeEmptyArray() { return }
                var count = 0
                while true {
                    cursor.skipWhitespace()
                    if let next = element(count, after: matched) {
                        // Elements' indexes do not repeat: only a later member of an outer object can.
                        value(matching: next)
                        settleIfFound()
                        if isSettled { return }
                    } else {
                        skipValue()
                    }
                    count += 1
                    guard cursor.takeComma() else { break }
                }
                cursor.position += 1  // ']'
            default:
                skipValue()
            }
        }

        /// Once the target is found, settles the walk when the rest of the document cannot give it
        /// again. A later value has the path only through a later member, in an object on the way,
        /// whose key starts as that object's lead does; the rest cannot have one when no string in it
        /// starts so, and no escape in it could write a lead otherwise (keys are read with their
        /// escapes decoded).
        private mutating func settleIfFound() {
            guard found != nil, !isSettled else { return }
            isSettled = cursor.bytes.withUnsafeBufferPointer { buffer in
                let rest = UnsafeBufferPointer(rebasing: buffer[cursor.position...])
                guard let base = rest.baseAddress, !rest.isEmpty else { return true }
                // The innermost lead first: an inner key (`name`, `type`) is often common, and found
                // near at once; an outer one (`projection`, `layers`) is rarely, and read for to the end.
                for lead in leads.reversed() {
                    let opening = [UInt8(ascii: "\"")] + lead
                    if opening.withUnsafeBytes({ mapsim_find_bytes(base, rest.count, $0.baseAddress, $0.count) }) != nil { return false }
                }
                var offset = 0
                while let hit = memchr(base + offset, Int32(UInt8(ascii: "\\")), rest.count - offset) {
                    let escape = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                    guard escape + 1 < rest.count else { return true }
                    let decoded: UInt8
                    switch rest[escape + 1] {
                    case UInt8(ascii: "u"): return false
                    case UInt8(ascii: "b"): decoded = 0x08
                    case UInt8(ascii: "f"): decoded = 0x0C
                    case UInt8(ascii: "n"): decoded = 0x0A
                    case UInt8(ascii: "r"): decoded = 0x0D
                    case UInt8(ascii: "t"): decoded = 0x09
                    case let other: decoded = other
                    }
                    if leads.contains(where: { $0.contains(decoded) }) { return false }
                    offset = escape + 2
                }
                return true
            }
        }

        /// How much of the target the path of member `key` matches, when it is on the way to it.
        private func member(_ key: some Collection<UInt8>, after matched: Int) -> Int? {
            var next = matched
            if matched > 0 {
                guard next < target.count, target[next] == UInt8(ascii: ".") else { return nil }
                next += 1
            }
            guard target.count - next >= key.count, target[next..<next + key.count].elementsEqual(key) else { return nil }
            return endsComponent(next + key.count) ? next + key.count : nil
        }

        /// How much of the target the path of element `index` matches, when it is on the way to it.
        private func element(_ index: Int, after matched: Int) -> Int? {
            let text = Array("[\(index)]".utf8)
            guard target.count - matched >= text.count, target[matched..<matched + text.count].elementsEqual(text) else { return nil }
            return endsComponent(matched + text.count) ? matched + text.count : nil
        }

        /// Whether a path component of the target can end at `offset`: at its end, or before a
        /// member's dot or an element's bracket.
        private func endsComponent(_ offset: Int) -> Bool {
            offset == target.count || target[offset] == UInt8(ascii: ".") || target[offset] == UInt8(ascii: "[")
        }

        /// Moves past the value at the cursor, counting its lines: brackets are matched
        /// outside strings (a valid document has no raw line break inside one).
        private mutating func skipValue() {
            guard cursor.position < cursor.bytes.count else { return }
            switch cursor.bytes[cursor.position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // Read through the buffer with local counters: a large document is mostly skipped.
                let start = cursor.position
                let (end, lines) = cursor.bytes.withUnsafeBufferPointer { buffer -> (Int, Int) in
                    var depth = 0
                    var lines = 0
                    var index = start
                    while index < buffer.count {
                        switch buffer[index] {
                        case UInt8(ascii: "\""):
                            index = LineCursor.end(ofStringAt: index, in: buffer)
                            continue
                        case UInt8(ascii: "{"), UInt8(ascii: "["):
                            depth += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            depth -= 1
                            if depth == 0 { return (index + 1, lines) }
                        case 0x0A:
                            lines += 1
                        default:
                            break
                        }
                        index += 1
                    }
                    return (buffer.count, lines)
                }
                cursor.position = end
                cursor.line += lines
            case UInt8(ascii: "\""):
                cursor.skipString()
            default:
                cursor.skipScalar()
            }
        }
    }

    /// A position in a valid document and the line it is on, as `JSONParser` counts lines.
    private struct LineCursor {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Moves past the string that starts at the current position.
        mutating func skipString() {
            position = bytes.withUnsafeBufferPointer { Self.end(ofStringAt: position, in: $0) }
        }

        /// The position just past the string whose opening quote is at `start` in `buffer` (the
        /// buffer's end, for a string it does not close).
        static func end(ofStringAt start: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
            var index = start + 1
            while index < buffer.count, buffer[index] != UInt8(ascii: "\"") {
                index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(index + 1, buffer.count)
        }

        /// Moves past a number or a literal: up to the next delimiter.
        mutating func skipScalar() {
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return
                default: position += 1
                }
            }
        }

        /// The UTF-8 bytes of the key of the next member of the object being read (white space
        /// before it and the colon after it passed), or nil at the object's end.
        mutating func memberKey() -> ArraySlice<UInt8>? {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position
            skipString()
            var key = bytes[start + 1..<position - 1]
            if key.contains(UInt8(ascii: "\\")) {
                key = ArraySlice(((try? JSONParser.parse(Array(bytes[start..<position])))?.stringValue ?? "").utf8)
            }
            skipWhitespace()
            position += 1  // ':'
            return key
        }

        /// Whether another member or element follows (its comma passed).
        mutating func takeComma() -> Bool {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return false }
            position += 1
            return true
        }

        /// Moves into the array at the cursor; whether it is empty (and then past it).
        mutating func takeEmptyArray() -> Bool {
            position += 1
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "]") else { return false }
            position += 1
            return true
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x0A: line += 1; position += 1
                case 0x20, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }
    }

    /// Walks a valid document, noting the line where each value starts, as `JSONParser` counts lines.
    private struct Scanner {
        var cursor: LineCursor
        var table: [UInt64: Int32] = [:]
        let keepsLiterals: Bool
        var literals: [UInt64: String] = [:]

        init(bytes: [UInt8], keepsLiterals: Bool) {
            cursor = LineCursor(bytes: bytes)
            self.keepsLiterals = keepsLiterals
        }

        mutating func value(at path: PathHash) {
            cursor.skipWhitespace()
            guard cursor.position < cursor.bytes.count else { return }
            table[path.value] = Int32(clamping: cursor.line)
            switch cursor.bytes[cursor.position] {
            case UInt8(ascii: "{"):
                cursor.position += 1
                while let key = cursor.memberKey() {
                    value(at: path.member(utf8: key))
                    guard cursor.takeComma() else { break }
                }
                cursor.position += 1  // '}'
            case UInt8(ascii: "["):
                if cursor.takeEmptyArray() { return }
                var count = 0
                while true {
                    value(at: path.element(count))
                    count += 1
                    guard cursor.takeComma() else { break }
                }
                cursor.position += 1  // ']'
            case UInt8(ascii: "\""):
                cursor.skipString()
            default:
                // A number or a literal: up to the next delimiter.
                let start = cursor.position
                cursor.skipScalar()
                if keepsLiterals { literals[path.value] = String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self) }
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
