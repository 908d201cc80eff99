/// A decoded image: 8-bit red, green, blue and alpha per pixel, rows from the top (GL JS's `RGBAImage`).
public struct RGBAImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A of each pixel, row by row.
    public let pixels: [UInt8]

    /// An image of `width`×`height` pixels; `pixels` must hold four bytes for each.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "RGBA pixels of the wrong size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
