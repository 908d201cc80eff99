import MapSimStyle

/// A `raster-dem` tile decoded as GL JS decodes it (`DEMData`): a square image of `dimension` pixels a
/// side, each pixel's height in metres by the source's encoding, and the lowest and highest of them —
/// what 3D terrain's covers and the camera's elevation read.
public struct DEMTile: Sendable, Hashable {
    /// The most pixels a side of a DEM image may have here (GL JS has no limit; real DEMs are 256 or
    /// 512, with a border 258 or 514).
    public static let maximumDimension = 4096

    /// The pixels on a side (`dim`: the image's height).
    public let dimension: Int
    /// The heights in metres, row by row from the top.
    public let heights: [Double]
    /// The lowest height.
    public let minimum: Double
    /// The highest height.
    public let maximum: Double

    /// A tile of `dimension`² heights, row by row.
    public init(dimension: Int, heights: [Double]) {
        precondition(dimension > 0 && heights.count == dimension * dimension, "DEM heights of the wrong size")
        self.dimension = dimension
        self.heights = heights
        minimum = heights.min()!
        maximum = heights.max()!
    }

    /// The height of the pixel in column `x` of row `y`.
    public func height(x: Int, y: Int) -> Double { heights[y * dimension + x] }

    /// The tile a PNG image holds, its pixels' red, green and blue read by `encoding` (alpha is
    /// ignored); a PNG that does not decode, or is not square, gives a `LoadingError` naming why.
    public static func decode(png bytes: [UInt8], encoding: DEMEncoding) throws(LoadingError) -> DEMTile {
        let header = try PNGHeader.read(bytes)
        guard header.width == header.height else {
            throw LoadingError.malformedResource("DEM image of \(header.width)×\(header.height) pixels is not square (DEM tiles must be square)")
        }
        guard header.width <= maximumDimension else {
            throw LoadingError.malformedResource("DEM image of \(header.width)×\(header.height) pixels is larger than \(maximumDimension)×\(maximumDimension)")
        }
        let image = try PNGImage.decode(bytes, maximumPixels: maximumDimension * maximumDimension)
        var heights = [Double](repeating: 0, count: image.width * image.height)
        for i in heights.indices {
            heights[i] = encoding.height(red: image.pixels[i * 4], green: image.pixels[i * 4 + 1], blue: image.pixels[i * 4 + 2])
        }
        return DEMTile(dimension: image.width, heights: heights)
    }
}
