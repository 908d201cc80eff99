/// The size of a PNG image, read from its signature and IHDR chunk.
public struct PNGHeader: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the header of PNG data; anything else gives a `LoadingError`.
    public static func read(_ bytes: [UInt8]) throws(LoadingError) -> PNGHeader {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw LoadingError.malformedResource("not a PNG image (bad signature)") }
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { throw LoadingError.malformedResource("PNG image without an IHDR chunk (truncated?)") }
        func u32(_ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let header = PNGHeader(width: u32(16), height: u32(20))
        guard header.width > 0, header.height > 0 else { throw LoadingError.malformedResource("PNG image of size \(header.width)×\(header.height)") }
        return header
    }
}
