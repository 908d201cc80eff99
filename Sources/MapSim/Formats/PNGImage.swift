/// A PNG image checked as a decoder reads it: every chunk whole with its CRC, a valid IHDR, image
/// data that inflates to exactly the rows the header promises, an IEND. What a map SDK's image
/// decoder (libpng, a browser's) refuses is refused here with the reason. `validate` stops there;
/// `decode` also undoes the scanline filters and gives the pixels.
public enum PNGImage {
    /// The most bytes of pixels decoded: a sprite sheet of 8192×8192 RGBA is 256 MB.
    public static let maximumDecodedSize = 512_000_000

    /// The header of `bytes` once the whole image checks; else a `LoadingError` naming what is wrong.
    public static func validate(_ bytes: [UInt8]) throws(LoadingError) -> PNGHeader {
        try read(bytes, maximumPixels: nil).header
    }

    /// The pixels of `bytes` as 8-bit RGBA: grey, grey with alpha, RGB, RGBA and palette images of
    /// every bit depth, interlaced or not (16-bit samples keep their high byte, as a browser's canvas
    /// does; a palette's `tRNS` gives its alpha, other images' colour keys are not applied). An image
    /// of more than `maximumPixels` pixels is refused before its pixels are made.
    public static func decode(_ bytes: [UInt8], maximumPixels: Int = 16_777_216) throws(LoadingError) -> RGBAImage {
        let image = try read(bytes, maximumPixels: maximumPixels)
        return try image.pixels()
    }

    /// The chunks of `bytes` read and the image data inflated: what `validate` checks and `decode` decodes.
    private static func read(_ bytes: [UInt8], maximumPixels: Int?) throws(LoadingError) -> PNGData {
        let header = try PNGHeader.read(bytes)
        var position = 8
        var ihdr: [UInt8] = []
        var imageData: [UInt8] = []
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var ended = false
        while position < bytes.count && !ended {
            guard bytes.count - position >= 12 else { throw LoadingError.malformedResource("PNG image truncated in a chunk header at byte \(position)") }
            let length = Int(u32(bytes, position))
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            guard length <= bytes.count - position - 12 else {
                throw LoadingError.malformedResource("PNG chunk \(type) at byte \(position) claims \(length) bytes, past the end of the image")
            }
            let data = bytes[position + 8..<position + 8 + length]
            guard CRC32.checksum(bytes[position + 4..<position + 8 + length]) == u32(bytes, position + 8 + length) else {
                throw LoadingError.malformedResource("PNG chunk \(type) at byte \(position) fails its CRC")
            }
            switch type {
            case "IHDR": ihdr = Array(data)
            case "IDAT": imageData += data
            case "PLTE": palette = Array(data)
            case "tRNS": transparency = Array(data)
            case "IEND": ended = true
            default: break
            }
            position += 12 + length
        }
        guard ended else { throw LoadingError.malformedResource("PNG image without an IEND chunk (truncated?)") }
        guard ihdr.count == 13 else { throw LoadingError.malformedResource("PNG IHDR of \(ihdr.count) bytes, not 13") }
        let depth = Int(ihdr[8])
        let colorType = Int(ihdr[9])
        let channels: Int
        switch (colorType, depth) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16): channels = 1
        case (2, 8), (2, 16): channels = 3
        case (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
        case (4, 8), (4, 16): channels = 2
        case (6, 8), (6, 16): channels = 4
        default: throw LoadingError.malformedResource("PNG colour type \(colorType) with bit depth \(depth) is not a PNG format")
        }
        guard ihdr[10] == 0, ihdr[11] == 0, ihdr[12] <= 1 else { throw LoadingError.malformedResource("PNG IHDR names an unknown compression, filter or interlace method") }
        if let maximumPixels, header.width > maximumPixels / header.height {
            throw LoadingError.malformedResource("PNG image of \(header.width)×\(header.height) has more than the \(maximumPixels) pixels decoded")
        }
        let interlaced = ihdr[12] == 1
        guard let expected = rawSize(width: header.width, height: header.height, bitsPerPixel: depth * channels, interlaced: interlaced),
              expected <= maximumDecodedSize else {
            throw LoadingError.malformedResource("PNG image of \(header.width)×\(header.height) is too large to decode (over \(maximumDecodedSize / 1_000_000) MB of pixels)")
        }
        let inflated: [UInt8]
        do {
            inflated = try ZlibCodec.inflate(imageData, limit: expected + 1)
        } catch {
            throw LoadingError.malformedResource("PNG image data does not inflate: \(error)")
        }
        guard inflated.count == expected else {
            throw LoadingError.malformedResource("PNG image data holds \(inflated.count) bytes, not the \(expected) of a \(header.width)×\(header.height) image")
        }
        return PNGData(header: header, depth: depth, colorType: colorType, channels: channels, interlaced: interlaced,
                       filtered: inflated, palette: palette, transparency: transparency)
    }

    /// The passes of Adam7 interlacing: first column and row, column and row steps.
    static let adam7Passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// The bytes of filtered scanlines a `width`×`height` image has: one filter byte per row, Adam7's
    /// seven passes when interlaced; nil past what an `Int` holds (a header's 2³¹ × 2³¹).
    private static func rawSize(width: Int, height: Int, bitsPerPixel: Int, interlaced: Bool) -> Int? {
        func rows(_ w: Int, _ h: Int) -> Int? {
            guard w > 0, h > 0 else { return 0 }
            let (bits, overflow) = w.multipliedReportingOverflow(by: bitsPerPixel)
            guard !overflow else { return nil }
            let (size, tooLarge) = h.multipliedReportingOverflow(by: 1 + (bits + 7) / 8)
            return tooLarge ? nil : size
        }
        guard interlaced else { return rows(width, height) }
        var sum = 0
        for (x, y, dx, dy) in adam7Passes {
            guard let size = rows((width - x + dx - 1) / dx, (height - y + dy - 1) / dy) else { return nil }
            let (total, overflow) = sum.addingReportingOverflow(size)
            guard !overflow else { return nil }
            sum = total
        }
        return sum
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
