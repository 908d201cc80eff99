/// Recognizes the image formats map SDKs decode for raster tiles, image sources and sprites.
enum ImageSignature {
    /// Whether `data` starts like a PNG, JPEG or WebP image.
    static func isImage(_ data: [UInt8]) -> Bool {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return true }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return true }
        return data.count >= 12 && data.starts(with: Array("RIFF".utf8)) && Array(data[8..<12]) == Array("WEBP".utf8)
    }
}
