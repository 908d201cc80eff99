/// Decompresses FSST (Fast Static Symbol Table, Boncz, Neumann and Leis), the string compression
/// of MLT's FSST dictionaries: each byte of the compressed data is the code of a symbol of one to
/// eight bytes, or 255, which escapes the next byte as itself.
enum FSSTDecoder {
    /// The bytes `compressed` stands for, with the symbols of `symbolTable` whose lengths are
    /// `symbolLengths`. The output is at most eight times the input.
    static func decompress(_ compressed: ArraySlice<UInt8>, symbolTable: ArraySlice<UInt8>, symbolLengths: [UInt32]) throws(MLTFault) -> [UInt8] {
        var symbols: [Range<Int>] = []
        var start = symbolTable.startIndex
        for (code, length) in symbolLengths.enumerated() {
            guard (1...8).contains(length) else { throw MLTFault("has FSST symbol \(code) of \(length) bytes; symbols have 1 to 8") }
            guard Int(length) <= symbolTable.endIndex - start else { throw MLTFault("has FSST symbol lengths that run past its \(symbolTable.count)-byte symbol table") }
            symbols.append(start..<(start + Int(length)))
            start += Int(length)
        }
        var output: [UInt8] = []
        output.reserveCapacity(2 * compressed.count)
        var position = compressed.startIndex
        while position < compressed.endIndex {
            let code = Int(compressed[position])
            position += 1
            if code == 255 {
                guard position < compressed.endIndex else { throw MLTFault("ends with an FSST escape byte and no byte after it") }
                output.append(compressed[position])
                position += 1
            } else {
                guard code < symbols.count else { throw MLTFault("uses FSST symbol \(code) of a table of \(symbols.count)") }
                output.append(contentsOf: symbolTable[symbols[code]])
            }
        }
        return output
    }
}
