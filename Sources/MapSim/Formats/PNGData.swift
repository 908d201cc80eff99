/// A PNG image as its chunks give it, the image data inflated but still filtered: what `PNGImage`
/// decodes into pixels.
struct PNGData: Sendable {
    let header: PNGHeader
    /// Bits per sample: 1, 2, 4, 8 or 16.
    let depth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
    let colorType: Int
    /// Samples per pixel.
    let channels: Int
    /// Adam7 interlacing.
    let interlaced: Bool
    /// The inflated image data: filtered scanlines.
    let filtered: [UInt8]
    /// The `PLTE` chunk: RGB triples.
    let palette: [UInt8]
    /// The `tRNS` chunk: a palette's alphas.
    let transparency: [UInt8]

    /// The image as 8-bit RGBA.
    func pixels() throws(LoadingError) -> RGBAImage {
        let (width, height) = (header.width, header.height)
        if colorType == 3 && palette.isEmpty { throw LoadingError.malformedResource("PNG palette image without a PLTE chunk") }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let bitsPerPixel = depth * channels
        let bytesPerPixel = max(bitsPerPixel / 8, 1)
        let passes = interlaced ? PNGImage.adam7Passes : [(0, 0, 1, 1)]
        var offset = 0
        for (x0, y0, dx, dy) in passes {
            let passWidth = (width - x0 + dx - 1) / dx
            let passHeight = (height - y0 + dy - 1) / dy
            guard passWidth > 0, passHeight > 0 else { continue }
            let rowBytes = (passWidth * bitsPerPixel + 7) / 8
            let rows = try PNGScanlines.unfilter(filtered, offset: offset, rowBytes: rowBytes, height: passHeight, bytesPerPixel: bytesPerPixel)
            offset += passHeight * (rowBytes + 1)
            for row in 0..<passHeight {
                for column in 0..<passWidth {
                    let target = ((y0 + row * dy) * width + x0 + column * dx) * 4
                    let color = try self.color(in: rows, rowStart: row * rowBytes, column: column)
                    rgba[target] = color.0
                    rgba[target + 1] = color.1
                    rgba[target + 2] = color.2
                    rgba[target + 3] = color.3
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: rgba)
    }

    /// The RGBA of the pixel in `column` of the unfiltered row starting at `rowStart`.
    private func color(in rows: [UInt8], rowStart: Int, column: Int) throws(LoadingError) -> (UInt8, UInt8, UInt8, UInt8) {
        if depth < 8 {
            let bit = column * depth
            let byte = rows[rowStart + bit / 8]
            let value = Int(byte >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
            if colorType == 3 { return try paletteColor(value) }
            let grey = UInt8(value * 255 / ((1 << depth) - 1))
            return (grey, grey, grey, 255)
        }
        // Each sample's high byte (16-bit samples are big-endian).
        let sampleBytes = depth / 8
        let start = rowStart + column * channels * sampleBytes
        func sample(_ i: Int) -> UInt8 { rows[start + i * sampleBytes] }
        switch colorType {
        case 0: return (sample(0), sample(0), sample(0), 255)
        case 2: return (sample(0), sample(1), sample(2), 255)
        case 3: return try paletteColor(Int(sample(0)))
        case 4: return (sample(0), sample(0), sample(0), sample(1))
        default: return (sample(0), sample(1), sample(2), sample(3))
        }
    }

    private func paletteColor(_ index: Int) throws(LoadingError) -> (UInt8, UInt8, UInt8, UInt8) {
        guard index * 3 + 2 < palette.count else {
            throw LoadingError.malformedResource("PNG pixel uses palette entry \(index) of a palette of \(palette.count / 3)")
        }
        let alpha = index < transparency.count ? transparency[index] : 255
        return (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha)
    }
}
