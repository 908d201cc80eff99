import Foundation

/// A color as the expression language holds it: red, green and blue premultiplied by alpha, each
/// from 0 to 1, as the reference's `Color` stores them, with the straight channels kept for
/// interpolation (a fully transparent color keeps the channels it was written with).
public struct RGBAColor: Equatable, Sendable {
    /// Premultiplied red, green and blue, and alpha.
    public let red: Double, green: Double, blue: Double, alpha: Double
    /// The channels before premultiplication.
    let straight: [Double]

    /// A color from premultiplied channels.
    init(premultiplied red: Double, _ green: Double, _ blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        let factor = alpha == 0 || alpha.isNaN ? Double.infinity : alpha
        straight = [red / factor, green / factor, blue / factor]
    }

    /// A color from straight channels, premultiplied here.
    init(straight red: Double, _ green: Double, _ blue: Double, alpha: Double) {
        self.red = red * alpha
        self.green = green * alpha
        self.blue = blue * alpha
        self.alpha = alpha
        straight = [red, green, blue]
    }

    /// A CSS color, or nil.
    public init?(css text: String) {
        guard let (r, g, b, a) = CSSColor.parse(text) else { return nil }
        self.init(straight: r, g, b, alpha: a)
    }

    /// The straight channels and alpha.
    var rgba: [Double] { straight + [alpha] }

    /// `rgba(r,g,b,a)` with 0–255 channels, as the reference's `toString` writes it.
    var cssText: String {
        let channels = straight.map { JavaScriptNumber.string(($0 * 255 + 0.5).rounded(.down)) }
        return "rgba(\(channels.joined(separator: ",")),\(JavaScriptNumber.string(alpha)))"
    }

    /// The color space an interpolation blends in.
    enum Space: Sendable {
        case rgb, hcl, lab
    }

    /// The color `t` of the way from `from` to `to`, blended in `space`.
    static func interpolate(_ from: RGBAColor, _ to: RGBAColor, _ t: Double, in space: Space) -> RGBAColor {
        func mix(_ a: Double, _ b: Double) -> Double { a + t * (b - a) }
        switch space {
        case .rgb:
            let (a, b) = (from.rgba, to.rgba)
            return RGBAColor(straight: mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2]), alpha: mix(a[3], b[3]))
        case .lab:
            let (a, b) = (ColorSpaces.lab(from.rgba), ColorSpaces.lab(to.rgba))
            let rgb = ColorSpaces.rgb(lab: (0..<4).map { mix(a[$0], b[$0]) })
            return RGBAColor(straight: rgb[0], rgb[1], rgb[2], alpha: rgb[3])
        case .hcl:
            let (a, b) = (ColorSpaces.hcl(from.rgba), ColorSpaces.hcl(to.rgba))
            let (hue0, chroma0, light0) = (a[0], a[1], a[2])
            let (hue1, chroma1, light1) = (b[0], b[1], b[2])
            var hue: Double
            var chroma: Double?
            if !hue0.isNaN && !hue1.isNaN {
                var delta = hue1 - hue0
                if hue1 > hue0 && delta > 180 {
                    delta -= 360
                } else if hue1 < hue0 && hue0 - hue1 > 180 {
                    delta += 360
                }
                hue = hue0 + t * delta
            } else if !hue0.isNaN {
                hue = hue0
                if light1 == 1 || light1 == 0 { chroma = chroma0 }
            } else if !hue1.isNaN {
                hue = hue1
                if light0 == 1 || light0 == 0 { chroma = chroma1 }
            } else {
                hue = .nan
            }
            let rgb = ColorSpaces.rgb(hcl: [hue, chroma ?? mix(chroma0, chroma1), mix(light0, light1), mix(a[3], b[3])])
            return RGBAColor(straight: rgb[0], rgb[1], rgb[2], alpha: rgb[3])
        }
    }
}

/// Conversions between sRGB and CIELAB/HCL (D50), with the reference's constants.
enum ColorSpaces {
    private static let xn = 0.96422, yn = 1.0, zn = 0.82521
    private static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * t1 * t1, t3 = t1 * t1 * t1
    // Degrees and radians through one factor each, as the reference converts them: `x * (180 / π)`
    // rounds differently from `x * 180 / π`.
    private static let degreesPerRadian = 180 / Double.pi, radiansPerDegree = Double.pi / 180

    static func lab(_ rgba: [Double]) -> [Double] {
        let r = toLinear(rgba[0]), g = toLinear(rgba[1]), b = toLinear(rgba[2])
        let y = labCurve((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / yn)
        var x = y, z = y
        if !(r == g && g == b) {
            x = labCurve((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / xn)
            z = labCurve((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / zn)
        }
        let l = 116 * y - 16
        return [l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z), rgba[3]]
    }

    static func rgb(lab: [Double]) -> [Double] {
        let (l, a, b) = (lab[0], lab[1], lab[2])
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        y = yn * labInverse(y)
        x = xn * labInverse(x)
        z = zn * labInverse(z)
        return [
            toGamma(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
            toGamma(-0.9787684 * x + 1.9161415 * y + 0.033454 * z),
            toGamma(0.0719453 * x - 0.2289914 * y + 1.4052427 * z),
            lab[3],
        ]
    }

    static func hcl(_ rgba: [Double]) -> [Double] {
        let lab = lab(rgba)
        let chroma = (lab[1] * lab[1] + lab[2] * lab[2]).squareRoot()
        var hue = Double.nan
        if (chroma * 10000).rounded(.toNearestOrAwayFromZero) != 0 {
            hue = (atan2(lab[2], lab[1]) * degreesPerRadian).truncatingRemainder(dividingBy: 360)
            if hue < 0 { hue += 360 }
        }
        return [hue, chroma, lab[0], rgba[3]]
    }

    static func rgb(hcl: [Double]) -> [Double] {
        let hue = hcl[0].isNaN ? 0 : hcl[0] * radiansPerDegree
        return rgb(lab: [hcl[2], cos(hue) * hcl[1], sin(hue) * hcl[1], hcl[3]])
    }

    private static func toLinear(_ x: Double) -> Double {
        x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }

    private static func labCurve(_ t: Double) -> Double {
        t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0
    }

    private static func toGamma(_ x: Double) -> Double {
        let value = x <= 0.00304 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        return value < 0 ? 0 : value > 1 ? 1 : value
    }

    private static func labInverse(_ t: Double) -> Double {
        t > t1 ? t * t * t : t2 * (t - t0)
    }
}
