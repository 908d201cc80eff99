/// How a `raster-dem` source's pixels encode heights (the spec's `encoding`, with the factors of a
/// `custom` one): height = R·red + G·green + B·blue − baseShift, in metres.
public struct DEMEncoding: Sendable, Hashable {
    /// The encodings the spec names.
    public enum Kind: String, Sendable, CaseIterable {
        /// Mapbox Terrain-RGB: (R·65536 + G·256 + B)·0.1 − 10000.
        case mapbox
        /// Terrarium: R·256 + G + B/256 − 32768.
        case terrarium
        /// The source's own factors.
        case custom
    }

    /// The encoding.
    public var kind: Kind
    /// The factors of each channel and the shift, as the height formula reads them.
    public var redFactor: Double
    public var greenFactor: Double
    public var blueFactor: Double
    public var baseShift: Double

    /// Mapbox Terrain-RGB, the spec's default.
    public static let mapbox = DEMEncoding(kind: .mapbox, redFactor: 6553.6, greenFactor: 25.6, blueFactor: 0.1, baseShift: 10000)
    /// Terrarium.
    public static let terrarium = DEMEncoding(kind: .terrarium, redFactor: 256, greenFactor: 1, blueFactor: 1.0 / 256, baseShift: 32768)

    /// An encoding of `kind` with these factors (a `custom` one's; the others have their own).
    public init(kind: Kind, redFactor: Double = 1, greenFactor: Double = 1, blueFactor: Double = 1, baseShift: Double = 0) {
        self.kind = kind
        self.redFactor = redFactor
        self.greenFactor = greenFactor
        self.blueFactor = blueFactor
        self.baseShift = baseShift
    }

    /// The height in metres of a pixel.
    public func height(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        Double(red) * redFactor + Double(green) * greenFactor + Double(blue) * blueFactor - baseShift
    }
}
