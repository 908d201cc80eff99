/// What only Mapbox's current expression language evaluates: `to-hsla` and `at-interpolated`.
extension ExpressionEvaluator {
    /// A color's hue (degrees), saturation and lightness (percent) and alpha, from its straight
    /// channels clamped to 0...1, as Mapbox's `Color.toHslaArray` gives them.
    static func hsla(of color: RGBAColor) -> [Double] {
        let rgba = color.rgba
        let (red, green, blue) = (min(max(rgba[0], 0), 1), min(max(rgba[1], 0), 1), min(max(rgba[2], 0), 1))
        let low = min(red, green, blue)
        let high = max(red, green, blue)
        let delta = high - low
        let lightness = (low + high) * 0.5
        guard delta != 0 else { return [0, 0, lightness * 100, rgba[3]] }
        let saturation = lightness > 0.5 ? delta / (2 - high - low) : delta / (high + low)
        let hue: Double
        switch high {
        case red: hue = ((green - blue) / delta + (green < blue ? 6 : 0)) * 60
        case green: hue = ((blue - red) / delta + 2) * 60
        default: hue = ((red - green) / delta + 4) * 60
        }
        return [hue, saturation * 100, lightness * 100, rgba[3]]
    }

    /// `at-interpolated`: the item at `index`, or between the two numbers around a fractional index.
    func atInterpolated(_ index: Double, _ array: ExpressionValue) throws(ExpressionError) -> ExpressionValue {
        let items: [ExpressionValue]
        switch array {
        case .array(let values): items = values
        case .numberArray(let values), .padding(let values): items = values.map(ExpressionValue.number)
        default: return .null
        }
        if index < 0 { throw ExpressionError(.evaluation, "Array index out of bounds: \(JavaScriptNumber.string(index)) < 0.") }
        if index > Double(items.count - 1) {
            throw ExpressionError(.evaluation, "Array index out of bounds: \(JavaScriptNumber.string(index)) > \(items.count - 1).")
        }
        let lower = index.rounded(.down)
        if lower == index { return items[Int(index)] }
        let upper = index.rounded(.up)
        guard case .number(let from) = items[Int(lower)], case .number(let to) = items[Int(upper)] else {
            throw ExpressionError(.evaluation, "Cannot interpolate between non-number values at index \(JavaScriptNumber.string(index)).")
        }
        let fraction = index - lower
        return .number(from * (1 - fraction) + to * fraction)
    }
}
