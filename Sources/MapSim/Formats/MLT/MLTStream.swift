/// One stream of an MLT column: what it holds, how its values are encoded, and where its bytes are.
///
/// A stream starts with a header: a byte for its kind (the physical stream type in the high
/// nibble, the logical one in the low), a byte for its encodings (two logical techniques and a
/// physical one), the number of values and the number of bytes as varints, then the run-length or
/// Morton parameters when its encoding has them. Its bytes follow.
struct MLTStream {
    /// What a stream holds.
    enum Kind: Equatable {
        /// A bitmap of which features have a value.
        case present
        case data(DataKind)
        case offset(OffsetKind)
        case length(LengthKind)
    }

    /// What a data stream holds.
    enum DataKind: UInt8 {
        case plain = 0, dictionary, sharedDictionary, vertex, morton, fsstSymbols
    }

    /// What an offset stream indexes.
    enum OffsetKind: UInt8 {
        case vertex = 0, index, string, key
    }

    /// What a length stream counts.
    enum LengthKind: UInt8 {
        case varBinary = 0, geometries, parts, rings, triangles, symbols, dictionary
    }

    /// How values are transformed before their physical encoding.
    enum Logical: Equatable {
        case none
        /// Each value is the zigzag-encoded difference to the previous one.
        case delta
        /// Interleaved x, y pairs, each coordinate the zigzag-encoded difference to the previous.
        case componentwiseDelta
        /// `runs` run lengths then `runs` values, expanding to `count` values.
        case runLength(runs: Int, count: Int)
        /// Run-length encoded zigzag differences, expanding to `count` values.
        case deltaRunLength(runs: Int, count: Int)
        /// Vertices as Morton (Z-order) codes of `bits` bits per coordinate, shifted by `shift`;
        /// with `delta`, each code is the difference to the previous one.
        case morton(bits: Int, shift: UInt32, delta: Bool)
    }

    /// How values are laid out in bytes.
    enum Physical: UInt8 {
        /// Little-endian fixed-width values, or bytes, or a bitmap.
        case none = 0
        /// FastPFOR blocks of big-endian 32-bit words.
        case fastPFOR
        /// Varints.
        case varint
    }

    let kind: Kind
    let logical: Logical
    let physical: Physical
    /// The number of values the header declares (before any run-length expansion).
    let count: Int
    /// The tile the stream is in.
    let bytes: [UInt8]
    /// The stream's bytes in `bytes`.
    let payload: Range<Int>
    /// The stream's position in its column, counted from 0, for messages.
    let index: Int

    /// Reads a stream's header and skips its bytes. `bitmap` says the stream is a boolean column's
    /// data: like a present stream, its run-length parameters are implied, not written.
    static func read(_ reader: inout MLTReader, index: Int, bitmap: Bool = false) throws(MLTFault) -> MLTStream {
        let kind = try Self.kind(try reader.byte("the header of stream \(index)"), stream: index)
        let encodings = try reader.byte("the header of stream \(index)")
        guard let physical = Physical(rawValue: encodings & 3) else {
            throw MLTFault("stream \(index) has unknown physical encoding \(encodings & 3)")
        }
        let first = encodings >> 5
        let second = (encodings >> 2) & 7
        let count = try reader.varint32("the value count of stream \(index)")
        let length = try reader.varint32("the byte length of stream \(index)")
        let logical: Logical
        switch (first, second) {
        case (0, 0): logical = .none
        case (1, 0): logical = .delta
        case (2, 0): logical = .componentwiseDelta
        case (3, 0), (1, 3):
            var runs = 0
            var expanded = 0
            if !(bitmap || kind == .present) {
                runs = Int(try reader.varint32("the run count of stream \(index)"))
                expanded = Int(try reader.varint32("the run-length value count of stream \(index)"))
            }
            logical = first == 3 ? .runLength(runs: runs, count: expanded) : .deltaRunLength(runs: runs, count: expanded)
        case (4, 0), (4, 1):
            let bits = try reader.varint32("the Morton bit count of stream \(index)")
            let shift = try reader.varint32("the Morton shift of stream \(index)")
            guard bits <= 16 else { throw MLTFault("stream \(index) has Morton codes of \(bits) bits per coordinate; at most 16 fit") }
            logical = .morton(bits: Int(bits), shift: shift, delta: second == 1)
        default:
            throw MLTFault("stream \(index) has unsupported logical encodings \(Self.techniqueName(first)) + \(Self.techniqueName(second))")
        }
        let payload = try reader.take(Int(length), "stream \(index)")
        return MLTStream(kind: kind, logical: logical, physical: physical, count: Int(count), bytes: reader.bytes, payload: payload, index: index)
    }

    /// Reads a present stream and decodes its bits.
    static func readPresent(_ reader: inout MLTReader, index: Int, _ budget: inout MLTBudget) throws(MLTFault) -> [Bool] {
        let stream = try read(&reader, index: index)
        guard stream.kind == .present else { throw stream.fault("is not the present stream a nullable column starts with") }
        return try stream.bits(&budget)
    }

    private static func kind(_ byte: UInt8, stream: Int) throws(MLTFault) -> Kind {
        let low = byte & 0x0F
        let kind: Kind?
        switch byte >> 4 {
        case 0: kind = .present
        case 1: kind = DataKind(rawValue: low).map(Kind.data)
        case 2: kind = OffsetKind(rawValue: low).map(Kind.offset)
        case 3: kind = LengthKind(rawValue: low).map(Kind.length)
        default: kind = nil
        }
        guard let kind else { throw MLTFault("stream \(stream) has unknown stream type 0x\(String(byte, radix: 16))") }
        return kind
    }

    private static let techniqueNames = ["none", "delta", "componentwise delta", "RLE", "Morton", "pseudodecimal"]

    private static func techniqueName(_ code: UInt8) -> String {
        Int(code) < techniqueNames.count ? techniqueNames[Int(code)] : "unknown (\(code))"
    }

    /// The stream as messages name it: "stream 2 (dictionary lengths)".
    var label: String {
        let what: String
        switch kind {
        case .present: what = "present"
        case .data(let kind): what = ["plain data", "dictionary", "shared dictionary", "vertices", "Morton vertices", "FSST symbols"][Int(kind.rawValue)]
        case .offset(let kind): what = ["vertex offsets", "index buffer", "string offsets", "key offsets"][Int(kind.rawValue)]
        case .length(let kind):
            what = ["lengths", "geometry counts", "part counts", "ring counts", "triangle counts", "symbol lengths", "dictionary lengths"][Int(kind.rawValue)]
        }
        return "stream \(index) (\(what))"
    }

    /// A fault in this stream's values.
    func fault(_ message: String) -> MLTFault {
        MLTFault("\(label) \(message)")
    }
}
