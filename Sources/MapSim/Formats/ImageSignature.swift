/// Recognizes the image formats map SDKs decode for raster tiles, image sources and sprites.
public enum ImageSignature {
    /// The format `data` starts like — `png`, `jpg` or `webp`, as MBTiles names them — or nil.
    public static func format(of data: [UInt8]) -> String? {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if data.count >= 12 && data.starts(with: Array("RIFF".utf8)) && Array(data[8..<12]) == Array("WEBP".utf8) { return "webp" }
        return nil
    }

    /// Whether `data` starts like a PNG, JPEG or WebP image.
    public static func isImage(_ data: [UInt8]) -> Bool {
        format(of: data) != nil
    }
}
