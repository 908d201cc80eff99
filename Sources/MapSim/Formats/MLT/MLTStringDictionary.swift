/// The strings of a string column or a shared dictionary, from their streams: the bytes of the
/// strings one after another and their lengths, the bytes FSST-compressed when the symbol table
/// and its symbol lengths are there too.
struct MLTStringDictionary {
    /// The bytes of the strings (`data`, `.plain` or `.dictionary` or `.sharedDictionary`).
    var data: MLTStream?
    /// The length of each string (`.varBinary` or `.dictionary`).
    var lengths: MLTStream?
    /// The FSST symbol table.
    var symbolTable: MLTStream?
    /// The length of each FSST symbol.
    var symbolLengths: MLTStream?

    /// Keeps `stream` if it is one of the dictionary's; false if it is not.
    mutating func take(_ stream: MLTStream) throws(MLTFault) -> Bool {
        switch stream.kind {
        case .data(.plain), .data(.dictionary), .data(.sharedDictionary): try Self.place(stream, in: &data)
        case .length(.varBinary), .length(.dictionary): try Self.place(stream, in: &lengths)
        case .data(.fsstSymbols): try Self.place(stream, in: &symbolTable)
        case .length(.symbols): try Self.place(stream, in: &symbolLengths)
        default: return false
        }
        return true
    }

    private static func place(_ stream: MLTStream, in slot: inout MLTStream?) throws(MLTFault) {
        guard slot == nil else { throw stream.fault("repeats a stream the column already has") }
        slot = stream
    }

    /// The strings, in order.
    func strings(_ budget: inout MLTBudget) throws(MLTFault) -> [String] {
        guard let data, let lengths else { throw MLTFault("lacks the data or the lengths of its strings") }
        let bytes: ArraySlice<UInt8>
        switch (symbolTable, symbolLengths) {
        case (nil, nil):
            bytes = data.bytes[data.payload]
        case (let table?, let symbolLengths?):
            let decompressed = try FSSTDecoder.decompress(data.bytes[data.payload], symbolTable: table.bytes[table.payload],
                                                          symbolLengths: try symbolLengths.unsigned32(&budget))
            bytes = decompressed[...]
        default:
            throw MLTFault("has an FSST symbol table without its symbol lengths, or the other way round")
        }
        var start = bytes.startIndex
        var strings: [String] = []
        for length in try lengths.unsigned32(&budget) {
            guard Int(length) <= bytes.endIndex - start else { throw lengths.fault("has string lengths that run past the \(bytes.count) bytes of the strings") }
            strings.append(String(decoding: bytes[start..<(start + Int(length))], as: UTF8.self))
            start += Int(length)
        }
        return strings
    }
}
