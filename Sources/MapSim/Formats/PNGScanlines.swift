/// PNG's scanline filters undone (PNG specification, section 9): each row of filtered image data
/// starts with its filter type — 0 none, 1 sub, 2 up, 3 average, 4 Paeth — and the row's bytes are
/// predicted from the bytes to their left and above.
enum PNGScanlines {
    /// The unfiltered rows of `data` (`height` rows of one filter byte and `rowBytes` bytes each,
    /// starting at `offset`), back to back; pixels of `bytesPerPixel` bytes (1 for depths below 8).
    static func unfilter(_ data: [UInt8], offset: Int = 0, rowBytes: Int, height: Int, bytesPerPixel: Int) throws(LoadingError) -> [UInt8] {
        guard height > 0, rowBytes > 0 else { return [] }
        guard data.count - offset >= height * (rowBytes + 1) else {
            throw LoadingError.malformedResource("PNG image data ends before its \(height) rows of \(rowBytes) bytes")
        }
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        for row in 0..<height {
            let source = offset + row * (rowBytes + 1)
            let filter = data[source]
            let start = row * rowBytes
            for i in 0..<rowBytes {
                let raw = data[source + 1 + i]
                let left = i >= bytesPerPixel ? out[start + i - bytesPerPixel] : 0
                let up = row > 0 ? out[start - rowBytes + i] : 0
                let upLeft = row > 0 && i >= bytesPerPixel ? out[start - rowBytes + i - bytesPerPixel] : 0
                let predicted: UInt8
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = UInt8((Int(left) + Int(up)) / 2)
                case 4: predicted = paeth(left, up, upLeft)
                default: throw LoadingError.malformedResource("PNG row \(row) has filter type \(filter), not one of 0–4")
                }
                out[start + i] = raw &+ predicted
            }
        }
        return out
    }

    /// The Paeth predictor: of left, up and upper-left, the one nearest to left + up − upper-left
    /// (ties in that order).
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let (pa, pb, pc) = (abs(p - Int(a)), abs(p - Int(b)), abs(p - Int(c)))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
