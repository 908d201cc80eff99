import MapSimStyle

/// The size of the view in logical pixels and its pixel ratio (2 on a "retina" screen).
public struct Viewport: Sendable, Hashable {
    /// Width in logical pixels.
    public var width: Int
    /// Height in logical pixels.
    public var height: Int
    /// Device pixels per logical pixel.
    public var pixelRatio: Double

    /// A view of `width`×`height` logical pixels.
    public init(width: Int, height: Int, pixelRatio: Double = 1) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.pixelRatio = pixelRatio > 0 ? pixelRatio : 1
    }
}
