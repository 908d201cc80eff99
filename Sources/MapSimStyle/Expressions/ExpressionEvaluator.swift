import Foundation
import MapSimJSON

/// Evaluates parsed expressions with the reference's semantics: JavaScript's coercions and
/// comparisons, runtime errors with the reference's messages. The parser uses it with an empty
/// context to fold constants, so a constant that cannot be evaluated is a parse error there.
struct ExpressionEvaluator {
    let context: ExpressionContext
    /// The feature's properties, taken out of the context once.
    private let properties: JSONObject

    init(context: ExpressionContext) {
        self.context = context
        properties = context.feature?.properties ?? JSONObject()
    }

    func evaluate(_ expression: ParsedExpression) throws(ExpressionError) -> ExpressionValue {
        let children = expression.children
        switch expression.form {
        case .literal(let value):
            return value
        case .variable(let bound):
            return try evaluate(bound)
        case .let:
            return try evaluate(children[children.count - 1])
        case .assertion:
            return try assert(expression.type, children)
        case .coercion:
            return try coerce(expression.type, children)
        case .compound(_, let op):
            return try compound(op, children)
        case .case:
            var index = 0
            while index < children.count - 1 {
                if try evaluate(children[index]).isTruthy { return try evaluate(children[index + 1]) }
                index += 2
            }
            return try evaluate(children[children.count - 1])
        case .coalesce:
            return try coalesce(children)
        case .match(let table):
            let branch = table.branch(for: try evaluate(children[0]))
            return try evaluate(children[branch.map { $0 + 1 } ?? children.count - 1])
        case .step(let labels):
            if labels.count == 1 { return try evaluate(children[1]) }
            let input = try number(evaluate(children[0]))
            return try evaluate(children[try Self.stopIndex(labels, input) + 1])
        case .interpolate(let labels, let curve, let space):
            return try interpolate(expression.type, labels: labels, curve: curve, space: space, children)
        case .comparison(let op, let collated):
            return try compare(op, children, collated: collated)
        case .collator:
            let locale = children.count > 2 ? try evaluate(children[2]).stringValue : nil
            return .collator(try ExpressionCollator(caseSensitive: try evaluate(children[0]).isTruthy,
                                                diacriticSensitive: try evaluate(children[1]).isTruthy, locale: locale))
        case .format(let sections):
            return .formatted(FormattedText(sections: try sections.map { slots throws(ExpressionError) in try formatSection(slots, children) }))
        case .image:
            let name = try evaluate(children[0]).text
            if name.isEmpty { return .null }
            return .image(ResolvedImage(name: name, available: context.availableImages?.contains(name) ?? false))
        case .in:
            return try contains(evaluate(children[0]), evaluate(children[1]))
        case .indexOf:
            return try indexOf(children)
        case .slice:
            return try slice(children)
        case .at:
            return try element(evaluate(children[0]), of: evaluate(children[1]))
        case .length:
            switch try evaluate(children[0]) {
            case .string(let s): return .number(Double(s.unicodeScalars.count))
            case .array(let items): return .number(Double(items.count))
            case let other: throw ExpressionError(.evaluation, "Expected value to be of type string or array, but found \(other.type) instead.")
            }
        case .numberFormat(let slots):
            return try numberFormat(slots, children)
        case .within(let shape):
            return .bool(shape.contains(context.feature, in: context.tile))
        case .distance(let shape):
            return .number(shape.distance(to: context.feature, in: context.tile))
        case .globalState(let key):
            // The reference gives null while the state is empty, and JavaScript's undefined for a key
            // it does not have once it has others.
            if context.globalState.members.isEmpty { return .null }
            return context.globalState[key].map(ExpressionValue.init) ?? .undefined
        }
    }

    // MARK: - Annotations

    private func assert(_ type: ExpressionType, _ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        for (index, child) in children.enumerated() {
            let value = try evaluate(child)
            // The common cases, without building the value's type.
            switch (type, value) {
            case (.string, .string), (.number, .number), (.boolean, .bool), (.object, .object): return value
            default: break
            }
            let actual = value.type
            if type.accepts(actual) { return value }
            if index == children.count - 1 {
                throw ExpressionError(.evaluation, "Expected value to be of type \(type), but found \(actual) instead.")
            }
        }
        return .null
    }

    /// How a coercion's failure shows the value: strings as they are, the rest as JSON.
    private static func shown(_ value: ExpressionValue) -> String {
        value == .undefined ? "undefined" : value.stringValue ?? ExpressionValue.jsonText(value.json(topLevel: false))
    }

    /// Mapbox's `hsl` and `hsla`: hue 0–360, saturation and lightness 0–100, alpha 0–1 (1 when not given).
    private func hsla(_ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        var values = try children.map { child throws(ExpressionError) in try evaluate(child).numberValue ?? .nan }
        if values.count == 3 { values.append(1) }
        let listed = values.map(JavaScriptNumber.string).joined(separator: ", ")
        let (h, s, l, a) = (values[0], values[1], values[2], values[3])
        if !(0...360).contains(h) {
            throw ExpressionError(.evaluation, "Invalid hsla value [\(listed)]: 'h' must be between 0 and 360.")
        } else if !(0...100).contains(s) || !(0...100).contains(l) {
            throw ExpressionError(.evaluation, "Invalid hsla value [\(listed)]: 's', and 'l' must be between 0 and 100.")
        } else if !(0...1).contains(a) {
            throw ExpressionError(.evaluation, "Invalid hsla value [\(listed)]: 'a' must be between 0 and 1.")
        }
        let text = "hsla(\(JavaScriptNumber.string(h)), \(JavaScriptNumber.string(s))%, \(JavaScriptNumber.string(l))%, \(JavaScriptNumber.string(a)))"
        guard let color = RGBAColor(css: text) else { throw ExpressionError(.evaluation, "Failed to parse HSLA color: \(text)") }
        return .color(color)
    }

    private func coerce(_ type: ExpressionType, _ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        switch type {
        case .boolean:
            return .bool(try evaluate(children[0]).isTruthy)
        case .number:
            var value = ExpressionValue.null
            for child in children {
                value = try evaluate(child)
                if value == .null { return .number(0) }
                let number = Self.javaScriptNumber(value)
                if !number.isNaN { return .number(number) }
            }
            let shown = value == .undefined ? "undefined" : ExpressionValue.jsonText(value.json(topLevel: false))
            throw ExpressionError(.evaluation, "Could not convert \(shown) to number.")
        case .color:
            var value = ExpressionValue.null
            var problem: String?
            for child in children {
                value = try evaluate(child)
                problem = nil
                switch value {
                case .color:
                    return value
                case .string(let text):
                    if let color = RGBAColor(css: text) { return .color(color) }
                case .array(let items):
                    if items.count < 3 || items.count > 4 {
                        problem = "Invalid rgba value \(ExpressionValue.jsonText(value.json(topLevel: false))): expected an array containing either three or four numeric values."
                    } else {
                        problem = Self.rgbaProblem(items)
                    }
                    if problem == nil, let r = items[0].numberValue, let g = items[1].numberValue, let b = items[2].numberValue {
                        return .color(RGBAColor(premultiplied: r / 255, g / 255, b / 255, alpha: items.count > 3 ? items[3].numberValue ?? 1 : 1))
                    }
                default:
                    break
                }
            }
            throw ExpressionError(.evaluation, problem ?? "Could not parse color from value '\(Self.shown(value))'")
        case .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection:
            var value = ExpressionValue.null
            for child in children {
                value = try evaluate(child)
                if let parsed = Self.typedArray(value, as: type) { return parsed }
            }
            throw ExpressionError(.evaluation, "Could not parse \(type) from value '\(Self.shown(value))'")
        case .formatted:
            let value = try evaluate(children[0])
            if case .formatted = value { return value }
            return .formatted(FormattedText(text: value.text))
        case .resolvedImage:
            let value = try evaluate(children[0])
            if case .image = value { return value }
            let name = value.text
            return name.isEmpty ? .null : .image(ResolvedImage(name: name, available: false))
        case .projectionDefinition:
            return try evaluate(children[0])
        case .array:
            // An array that names no operator, in Mapbox's language: its elements.
            return .array(try children.map { child throws(ExpressionError) in try evaluate(child) })
        default:
            // JSON.stringify(undefined) is undefined: `to-string` gives it back.
            let value = try evaluate(children[0])
            return value == .undefined ? .undefined : .string(value.text)
        }
    }

    /// A padding, number array, color array or variable anchor offsets read from `value`, or nil.
    static func typedArray(_ value: ExpressionValue, as type: ExpressionType) -> ExpressionValue? {
        switch (type, value) {
        case (.padding, .padding), (.numberArray, .numberArray), (.colorArray, .colorArray), (.variableAnchorOffsetCollection, .variableAnchorOffsets):
            return value
        case (.padding, .number(let n)):
            return .padding([n, n, n, n])
        case (.numberArray, .number(let n)):
            return .numberArray([n])
        case (.padding, .array(let items)):
            let numbers = items.compactMap(\.numberValue)
            guard (1...4).contains(items.count), numbers.count == items.count else { return nil }
            switch numbers.count {
            case 1: return .padding([numbers[0], numbers[0], numbers[0], numbers[0]])
            case 2: return .padding([numbers[0], numbers[1], numbers[0], numbers[1]])
            case 3: return .padding([numbers[0], numbers[1], numbers[2], numbers[1]])
            default: return .padding(numbers)
            }
        case (.numberArray, .array(let items)):
            let numbers = items.compactMap(\.numberValue)
            return numbers.count == items.count ? .numberArray(numbers) : nil
        case (.colorArray, .string(let text)):
            return RGBAColor(css: text).map { .colorArray([$0]) }
        case (.colorArray, .array(let items)):
            let colors = items.compactMap { $0.stringValue.flatMap(RGBAColor.init(css:)) }
            return colors.count == items.count ? .colorArray(colors) : nil
        case (.variableAnchorOffsetCollection, .array(let items)):
            let anchors: Set<String> = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
            guard !items.isEmpty, items.count % 2 == 0 else { return nil }
            for index in stride(from: 0, to: items.count, by: 2) {
                guard case .string(let anchor) = items[index], anchors.contains(anchor),
                      case .array(let offset) = items[index + 1], offset.count == 2, offset.allSatisfy({ $0.numberValue != nil }) else { return nil }
            }
            return .variableAnchorOffsets(items.map { $0.json(topLevel: false) })
        default:
            return nil
        }
    }

    // MARK: - Compound operators

    private func number(_ value: ExpressionValue) -> Double {
        value.numberValue ?? .nan
    }

    private func numbers(_ children: [ParsedExpression]) throws(ExpressionError) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(children.count)
        for child in children { result.append(number(try evaluate(child))) }
        return result
    }

    private func compound(_ op: CompoundOperator, _ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        switch op {
        case .get:
            let key = try evaluate(children[0]).text
            if children.count == 1 { return properties[key].map(ExpressionValue.init) ?? .null }
            guard case .object(let object) = try evaluate(children[1]) else { return .null }
            return object[key].map(ExpressionValue.init) ?? .null
        case .has:
            let key = try evaluate(children[0]).text
            if children.count == 1 { return .bool(properties[key] != nil) }
            guard case .object(let object) = try evaluate(children[1]) else { return .bool(false) }
            return .bool(object[key] != nil)
        case .all:
            for child in children where !(try evaluate(child).isTruthy) { return .bool(false) }
            return .bool(true)
        case .any:
            for child in children where try evaluate(child).isTruthy { return .bool(true) }
            return .bool(false)
        case .not:
            return .bool(!(try evaluate(children[0]).isTruthy))
        case .zoom:
            return .number(context.zoom ?? .nan)
        case .featureState:
            return context.featureState[try evaluate(children[0]).text].map(ExpressionValue.init) ?? .null
        case .properties:
            return .object(properties)
        case .geometryType:
            // A feature without a geometry type: the reference's `feature.type` is undefined.
            guard let feature = context.feature else { return .null }
            return feature.geometryType.map(ExpressionValue.string) ?? .undefined
        case .id:
            return context.feature?.id.map(ExpressionValue.init) ?? .null
        case .heatmapDensity:
            return .number(context.heatmapDensity ?? 0)
        case .elevation:
            return .number(context.elevation ?? 0)
        case .lineProgress:
            return .number(context.lineProgress ?? 0)
        case .accumulated:
            return context.accumulated ?? .null
        case .isSupportedScript:
            return .bool(true)
        case .error:
            throw ExpressionError(.evaluation, try evaluate(children[0]).text)
        case .typeOf:
            return .string(try evaluate(children[0]).type.description)
        case .toRGBA:
            guard case .color(let color) = try evaluate(children[0]) else { return .null }
            let rgba = color.rgba
            return .array([.number(rgba[0] * 255), .number(rgba[1] * 255), .number(rgba[2] * 255), .number(rgba[3])])
        case .rgb, .rgba:
            var values = try children.map { child throws(ExpressionError) in try evaluate(child) }
            // `rgb` is `rgba` with alpha 1, which the reference's message shows too.
            if values.count == 3 { values.append(.number(1)) }
            if let problem = Self.rgbaProblem(values) { throw ExpressionError(.evaluation, problem) }
            let n = values.map { $0.numberValue ?? .nan }
            return .color(RGBAColor(straight: n[0] / 255, n[1] / 255, n[2] / 255, alpha: n.count > 3 ? n[3] : 1))
        case .hsl, .hsla:
            return try hsla(children)
        case .config:
            // Mapbox's: the style's own option, or another scope's under `NAME + "\u{1F}" + SCOPE`.
            var key = try evaluate(children[0]).text
            if children.count > 1 { key += "\u{1F}" + (try evaluate(children[1]).text) }
            return context.config[key].map(ExpressionValue.init) ?? .null
        case .random:
            // Mapbox's: no feature seed here.
            return .null
        case .pitch, .distanceFromCenter, .measureLight, .rasterValue, .skyRadialProgress, .rasterParticleSpeed:
            // Mapbox's globals, which are 0 where the reference has none.
            return .number(0)
        case .worldview:
            return .string("")
        case .isActiveFloor:
            // No indoor floor is ever active here.
            return .bool(false)
        case .toHSLA:
            guard case .color(let color) = try evaluate(children[0]) else { return .null }
            return .array(Self.hsla(of: color).map(ExpressionValue.number))
        case .atInterpolated:
            return try atInterpolated(number(evaluate(children[0])), evaluate(children[1]))
        case .upcase:
            return .string(try evaluate(children[0]).text.uppercased())
        case .downcase:
            return .string(try evaluate(children[0]).text.lowercased())
        case .concat:
            var text = ""
            for child in children { text += try evaluate(child).text }
            return .string(text)
        case .split:
            let text = try evaluate(children[0]).text
            let separator = try evaluate(children[1]).text
            if separator.isEmpty { return .array(text.utf16.map { .string(String(decoding: [$0], as: UTF16.self)) }) }
            return .array(text.components(separatedBy: separator).map(ExpressionValue.string))
        case .join:
            // The reference joins its array argument's literal value (`arr.value.join`): an array
            // that is not a literal after constant folding has none, and JavaScript says so.
            guard case .literal(.array(let items)) = children[0].form else {
                throw ExpressionError(.evaluation, "Cannot read properties of undefined (reading 'join')")
            }
            return .string(items.map(\.text).joined(separator: try evaluate(children[1]).text))
        case .resolvedLocale:
            guard case .collator(let collator) = try evaluate(children[0]) else { return .null }
            return .string(collator.resolvedLocale)
        case .filter(let name):
            return try filter(name, children, properties: properties)
        default:
            return .number(arithmetic(op, try numbers(children)))
        }
    }

    private func arithmetic(_ op: CompoundOperator, _ n: [Double]) -> Double {
        switch op {
        case .plus: return n.reduce(0, +)
        case .times: return n.reduce(1, *)
        case .minus: return n.count == 1 ? -n[0] : n[0] - n[1]
        case .divide: return n[0] / n[1]
        case .modulo: return n[0].truncatingRemainder(dividingBy: n[1])
        case .power: return abs(n[0]) == 1 && n[1].isInfinite ? .nan : pow(n[0], n[1])
        case .ln2: return M_LN2
        case .pi: return Double.pi
        case .e: return M_E
        case .sqrt: return n[0].squareRoot()
        case .log10: return log(n[0]) / M_LN10
        case .ln: return log(n[0])
        case .log2: return log(n[0]) / M_LN2
        case .sin: return sin(n[0])
        case .cos: return cos(n[0])
        case .tan: return tan(n[0])
        case .asin: return asin(n[0])
        case .acos: return acos(n[0])
        case .atan: return atan(n[0])
        case .abs: return abs(n[0])
        case .floor: return n[0].rounded(.down)
        case .ceil: return n[0].rounded(.up)
        case .round: return n[0] < 0 ? -Self.javaScriptRound(-n[0]) : Self.javaScriptRound(n[0])
        case .min: return n.contains(where: \.isNaN) ? .nan : n.min() ?? .infinity
        case .max: return n.contains(where: \.isNaN) ? .nan : n.max() ?? -.infinity
        default: return .nan
        }
    }

    /// JavaScript's `Math.round`: halves go up.
    private static func javaScriptRound(_ x: Double) -> Double {
        let down = x.rounded(.down)
        return x - down >= 0.5 ? down + 1 : down
    }

    /// The compiled forms of legacy filters, which compare with JavaScript's strict rules.
    private func filter(_ name: String, _ children: [ParsedExpression], properties: JSONObject) throws(ExpressionError) -> ExpressionValue {
        let literals = try children.map { child throws(ExpressionError) in try evaluate(child) }
        let id = context.feature?.id.map(ExpressionValue.init) ?? .null
        let type = context.feature?.geometryType.map(ExpressionValue.string) ?? .null
        func property(_ key: ExpressionValue) -> ExpressionValue? { properties[key.text].map(ExpressionValue.init) }
        func ordered(_ a: ExpressionValue?, _ b: ExpressionValue, _ op: String) -> Bool {
            switch (a, b) {
            case (.number(let x)?, .number(let y)):
                return op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : x >= y
            case (.string(let x)?, .string(let y)):
                let (u, v) = (Array(x.utf16), Array(y.utf16))
                return op == "<" ? u.lexicographicallyPrecedes(v) : op == ">" ? v.lexicographicallyPrecedes(u)
                    : op == "<=" ? !v.lexicographicallyPrecedes(u) : !u.lexicographicallyPrecedes(v)
            case (.bool(let x)?, .bool(let y)):
                let (u, v) = (x ? 1 : 0, y ? 1 : 0)
                return op == "<" ? u < v : op == ">" ? u > v : op == "<=" ? u <= v : u >= v
            default:
                return false
            }
        }
        func list(_ value: ExpressionValue) -> [ExpressionValue] {
            if case .array(let items) = value { return items }
            return []
        }
        switch name {
        case "filter-==": return .bool(Self.strictlyEqual(property(literals[0]) ?? .null, literals[1]) && property(literals[0]) != nil)
        case "filter-id-==": return .bool(Self.strictlyEqual(id, literals[0]))
        case "filter-type-==": return .bool(Self.strictlyEqual(type, literals[0]))
        case "filter-<", "filter->", "filter-<=", "filter->=":
            return .bool(ordered(property(literals[0]), literals[1], String(name.dropFirst("filter-".count))))
        case "filter-id-<", "filter-id->", "filter-id-<=", "filter-id->=":
            return .bool(ordered(context.feature?.id.map(ExpressionValue.init), literals[0], String(name.dropFirst("filter-id-".count))))
        case "filter-has": return .bool(property(literals[0]) != nil)
        case "filter-has-id": return .bool(id != .null)
        case "filter-type-in": return .bool(list(literals[0]).contains { Self.strictlyEqual($0, type) })
        case "filter-id-in": return .bool(list(literals[0]).contains { Self.strictlyEqual($0, id) })
        case "filter-in-small", "filter-in-large":
            guard let value = property(literals[0]) else { return .bool(false) }
            return .bool(list(literals[1]).contains { Self.strictlyEqual($0, value) })
        default: throw ExpressionError(.evaluation, "Unknown expression \"\(name)\".")
        }
    }

    /// JavaScript's `===` on expression values: primitives by value (NaN is not equal to itself),
    /// anything else never.
    static func strictlyEqual(_ a: ExpressionValue, _ b: ExpressionValue) -> Bool {
        switch (a, b) {
        case (.null, .null), (.undefined, .undefined): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        // By UTF-16 code units, as JavaScript compares: canonically equivalent strings differ.
        case (.string(let x), .string(let y)): return x.utf16.elementsEqual(y.utf16)
        default: return false
        }
    }

    /// The reference's message for components that are not a valid rgba color, or nil.
    static func rgbaProblem(_ components: [ExpressionValue]) -> String? {
        func inRange(_ value: ExpressionValue, _ upper: Double) -> Bool {
            guard case .number(let n) = value else { return false }
            return n >= 0 && n <= upper
        }
        func shown(_ values: ArraySlice<ExpressionValue>) -> String {
            values.map { $0 == .null ? "" : $0.text }.joined(separator: ", ")
        }
        let hasNumericAlpha = components.count > 3 && components[3].numberValue != nil
        if !components.prefix(3).allSatisfy({ inRange($0, 255) }) {
            return "Invalid rgba value [\(shown(hasNumericAlpha ? components.prefix(4) : components.prefix(3)))]: 'r', 'g', and 'b' must be between 0 and 255."
        }
        if components.count > 3, !inRange(components[3], 1) {
            return "Invalid rgba value [\(shown(components.prefix(4)))]: 'a' must be between 0 and 1."
        }
        return nil
    }

    // MARK: - Control flow

    private func coalesce(_ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        var requestedImage: String?
        for (index, child) in children.enumerated() {
            var result = try evaluate(child)
            // An unavailable image is passed over, but remembered so that a missing image is reported.
            if case .image(let image) = result, !image.available {
                if requestedImage == nil { requestedImage = image.name }
                result = index == children.count - 1 ? .string(requestedImage ?? image.name) : .null
            }
            if result != .null { return result }
        }
        return .null
    }

    /// The index of the last stop at or below `input` (the reference's binary search).
    static func stopIndex(_ labels: [Double], _ input: Double) throws(ExpressionError) -> Int {
        if input <= labels[0] { return 0 }
        if input >= labels[labels.count - 1] { return labels.count - 1 }
        if input.isNaN { throw ExpressionError(.evaluation, "Input is not a number.") }
        var low = 0
        var high = labels.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if labels[middle] <= input {
                if middle == labels.count - 1 || input < labels[middle + 1] { return middle }
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return 0
    }

    private func interpolate(_ type: ExpressionType, labels: [Double], curve: ParsedExpression.InterpolationCurve,
                             space: RGBAColor.Space, _ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        if labels.count == 1 { return try evaluate(children[1]) }
        let input = number(try evaluate(children[0]))
        if input <= labels[0] { return try evaluate(children[1]) }
        if input >= labels[labels.count - 1] { return try evaluate(children[labels.count]) }
        let index = try Self.stopIndex(labels, input)
        let t = Self.interpolationFactor(curve, input: input, lower: labels[index], upper: labels[index + 1])
        let lower = try evaluate(children[index + 1])
        let upper = try evaluate(children[index + 2])
        return try Self.blend(lower, upper, t, space: space)
    }

    /// How far `input` is between two stops, shaped by the curve.
    static func interpolationFactor(_ curve: ParsedExpression.InterpolationCurve, input: Double, lower: Double, upper: Double) -> Double {
        func exponential(_ base: Double) -> Double {
            let difference = upper - lower
            let progress = input - lower
            if difference == 0 { return 0 }
            if base == 1 { return progress / difference }
            return (pow(base, progress) - 1) / (pow(base, difference) - 1)
        }
        switch curve {
        case .linear: return exponential(1)
        case .exponential(let base): return exponential(base)
        case .cubicBezier(let bezier): return bezier.solve(exponential(1))
        }
    }

    /// The value `t` of the way from `a` to `b`.
    static func blend(_ a: ExpressionValue, _ b: ExpressionValue, _ t: Double, space: RGBAColor.Space) throws(ExpressionError) -> ExpressionValue {
        func mix(_ x: Double, _ y: Double) -> Double { x + t * (y - x) }
        func mixAll(_ x: [Double], _ y: [Double]) -> [Double] { x.indices.map { mix($0 < x.count ? x[$0] : .nan, $0 < y.count ? y[$0] : .nan) } }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(mix(x, y))
        case (.color(let x), .color(let y)):
            return .color(RGBAColor.interpolate(x, y, t, in: space))
        case (.padding(let x), .padding(let y)):
            return .padding(mixAll(x, y))
        case (.numberArray(let x), .numberArray(let y)):
            return .numberArray(mixAll(x, y))
        case (.colorArray(let x), .colorArray(let y)):
            guard x.count == y.count else {
                throw ExpressionError(.evaluation, "colorArray: Arrays have mismatched length (\(x.count) vs. \(y.count)), cannot interpolate.")
            }
            return .colorArray(zip(x, y).map { RGBAColor.interpolate($0, $1, t, in: space) })
        case (.variableAnchorOffsets(let x), .variableAnchorOffsets(let y)):
            guard x.count == y.count else {
                throw ExpressionError(.evaluation, "Cannot interpolate values of different length. from: \(ExpressionValue.jsonText(.array(x))), to: \(ExpressionValue.jsonText(.array(y)))")
            }
            var output: [JSONValue] = []
            for index in stride(from: 0, to: x.count, by: 2) {
                guard x[index] == y[index] else {
                    throw ExpressionError(.evaluation, "Cannot interpolate values containing mismatched anchors. from[\(index)]: \(ExpressionValue(x[index]).text), to[\(index)]: \(ExpressionValue(y[index]).text)")
                }
                let from = x[index + 1].arrayValue?.compactMap(\.numberValue) ?? []
                let to = y[index + 1].arrayValue?.compactMap(\.numberValue) ?? []
                output += [x[index], .array(mixAll(from, to).map(JSONValue.number))]
            }
            return .variableAnchorOffsets(output)
        case (.array(let x), .array(let y)):
            return .array(mixAll(x.map { $0.numberValue ?? .nan }, y.map { $0.numberValue ?? .nan }).map(ExpressionValue.number))
        case (.string(let x), .string(let y)):
            return .projection(ProjectionDefinition(from: x, to: y, transition: t))
        default:
            return a
        }
    }

    // MARK: - Comparison and collections

    private func compare(_ op: String, _ children: [ParsedExpression], collated: Bool) throws(ExpressionError) -> ExpressionValue {
        let lhs = try evaluate(children[0])
        let rhs = try evaluate(children[1])
        let equality = op == "==" || op == "!="
        if !equality && (children[0].isUntyped || children[1].isUntyped) {
            switch (lhs, rhs) {
            case (.number, .number), (.string, .string): break
            default:
                throw ExpressionError(.evaluation, "Expected arguments for \"\(op)\" to be (string, string) or (number, number), but found (\(lhs.type.kind), \(rhs.type.kind)) instead.")
            }
        }
        if collated, case .string(let a) = lhs, case .string(let b) = rhs, case .collator(let collator) = try evaluate(children[2]) {
            let order = collator.compare(a, b)
            switch op {
            case "==": return .bool(order == 0)
            case "!=": return .bool(order != 0)
            case "<": return .bool(order < 0)
            case ">": return .bool(order > 0)
            case "<=": return .bool(order <= 0)
            default: return .bool(order >= 0)
            }
        }
        if equality { return .bool(Self.strictlyEqual(lhs, rhs) == (op == "==")) }
        return .bool(Self.lessOrGreater(op, lhs, rhs))
    }

    /// JavaScript's `<`, `>`, `<=`, `>=` on two values of the same primitive type.
    private static func lessOrGreater(_ op: String, _ lhs: ExpressionValue, _ rhs: ExpressionValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            return op == "<" ? a < b : op == ">" ? a > b : op == "<=" ? a <= b : a >= b
        case (.string(let a), .string(let b)):
            let (x, y) = (Array(a.utf16), Array(b.utf16))
            return op == "<" ? x.lexicographicallyPrecedes(y) : op == ">" ? y.lexicographicallyPrecedes(x)
                : op == "<=" ? !y.lexicographicallyPrecedes(x) : !x.lexicographicallyPrecedes(y)
        default:
            return false
        }
    }

    private static func isSearchable(_ needle: ExpressionValue) -> Bool {
        switch needle {
        case .null, .bool, .number, .string: true
        default: false
        }
    }

    private func contains(_ needle: ExpressionValue, _ haystack: ExpressionValue) throws(ExpressionError) -> ExpressionValue {
        if !haystack.isTruthy { return .bool(false) }
        guard Self.isSearchable(needle) else {
            throw ExpressionError(.evaluation, "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead.")
        }
        switch haystack {
        case .string(let text): return .bool(Self.utf16Index(of: Self.javaScriptString(needle), in: text, from: 0) != nil)
        case .array(let items): return .bool(items.contains { Self.strictlyEqual($0, needle) })
        default: throw ExpressionError(.evaluation, "Expected second argument to be of type array or string, but found \(haystack.type) instead.")
        }
    }

    private func indexOf(_ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        let needle = try evaluate(children[0])
        let haystack = try evaluate(children[1])
        guard Self.isSearchable(needle) else {
            throw ExpressionError(.evaluation, "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead.")
        }
        let from = children.count > 2 ? number(try evaluate(children[2])) : 0
        switch haystack {
        case .string(let text):
            let units = Array(text.utf16)
            let start = Self.relativeIndex(from, count: units.count, clampNegative: false)
            guard let found = Self.utf16Index(of: Self.javaScriptString(needle), in: text, from: start) else { return .number(-1) }
            return .number(Double(String(decoding: units[..<found], as: UTF16.self).unicodeScalars.count))
        case .array(let items):
            let start = Self.relativeIndex(from, count: items.count, clampNegative: true)
            guard start < items.count else { return .number(-1) }
            return .number(Double(items[start...].firstIndex { Self.strictlyEqual($0, needle) } ?? -1))
        default:
            throw ExpressionError(.evaluation, "Expected second argument to be of type array or string, but found \(haystack.type) instead.")
        }
    }

    private func slice(_ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        let input = try evaluate(children[0])
        let begin = number(try evaluate(children[1]))
        let end = children.count > 2 ? number(try evaluate(children[2])) : nil
        func bounds(_ count: Int) -> Range<Int> {
            let start = Self.relativeIndex(begin, count: count, clampNegative: true)
            let stop = end.map { Self.relativeIndex($0, count: count, clampNegative: true) } ?? count
            return start < stop ? start..<stop : start..<start
        }
        switch input {
        case .string(let text):
            let scalars = Array(text.unicodeScalars)
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[bounds(scalars.count)])
            return .string(String(result))
        case .array(let items):
            return .array(Array(items[bounds(items.count)]))
        default:
            throw ExpressionError(.evaluation, "Expected first argument to be of type array or string, but found \(input.type) instead.")
        }
    }

    /// A JavaScript relative index (`slice`, `indexOf`): truncated, negative from the end, clamped.
    private static func relativeIndex(_ value: Double, count: Int, clampNegative: Bool) -> Int {
        if value.isNaN { return 0 }
        let truncated = value.rounded(.towardZero)
        if truncated < 0 {
            if !clampNegative { return 0 }
            return max(0, count + Int(max(truncated, -Double(count))))
        }
        return Int(min(truncated, Double(count)))
    }

    /// Where `needle` first occurs in `text` at or after the UTF-16 offset `start`, in UTF-16 units.
    private static func utf16Index(of needle: String, in text: String, from start: Int) -> Int? {
        let units = Array(text.utf16)
        let pattern = Array(needle.utf16)
        let first = min(max(start, 0), units.count)
        if pattern.isEmpty { return first }
        guard units.count >= pattern.count, first <= units.count - pattern.count else { return nil }
        for offset in first...(units.count - pattern.count) where units[offset..<offset + pattern.count].elementsEqual(pattern) {
            return offset
        }
        return nil
    }

    /// JavaScript's `String(value)` for the primitives `in` and `index-of` search for.
    private static func javaScriptString(_ value: ExpressionValue) -> String {
        value == .null ? "null" : value.text
    }

    private func element(_ index: ExpressionValue, of array: ExpressionValue) throws(ExpressionError) -> ExpressionValue {
        let i = number(index)
        guard case .array(let items) = array else { return .null }
        if i < 0 { throw ExpressionError(.evaluation, "Array index out of bounds: \(JavaScriptNumber.string(i)) < 0.") }
        if i >= Double(items.count) {
            throw ExpressionError(.evaluation, "Array index out of bounds: \(JavaScriptNumber.string(i)) > \(items.count - 1).")
        }
        if i.rounded(.down) != i { throw ExpressionError(.evaluation, "Array index must be an integer, but found \(JavaScriptNumber.string(i)) instead.") }
        return items[Int(i)]
    }

    // MARK: - Text

    private func formatSection(_ slots: ParsedExpression.FormatSectionSlots, _ children: [ParsedExpression]) throws(ExpressionError) -> FormattedSection {
        let content = try evaluate(children[slots.content])
        let verticalAlign = try slots.verticalAlign.map { index throws(ExpressionError) in try evaluate(children[index]).stringValue } ?? nil
        if case .image(let image) = content {
            return FormattedSection(text: "", image: image, verticalAlign: verticalAlign)
        }
        var section = FormattedSection(text: content.text, verticalAlign: verticalAlign)
        if let index = slots.scale { section.scale = try evaluate(children[index]).numberValue }
        if let index = slots.font, case .array(let fonts) = try evaluate(children[index]) {
            section.fontStack = fonts.map(\.text).joined(separator: ",")
        }
        if let index = slots.textColor, case .color(let color) = try evaluate(children[index]) { section.textColor = color }
        return section
    }

    private func numberFormat(_ slots: ParsedExpression.NumberFormatSlots, _ children: [ParsedExpression]) throws(ExpressionError) -> ExpressionValue {
        func option(_ index: Int?) throws(ExpressionError) -> ExpressionValue? {
            guard let index else { return nil }
            return try evaluate(children[index])
        }
        let format = LocaleNumberFormat(
            locale: try option(slots.locale)?.stringValue, currency: try option(slots.currency)?.stringValue, unit: try option(slots.unit)?.stringValue,
            minimumFractionDigits: try option(slots.minFractionDigits)?.numberValue, maximumFractionDigits: try option(slots.maxFractionDigits)?.numberValue)
        return .string(format.string(number(try evaluate(children[0]))))
    }

    /// JavaScript's `Number(value)`.
    static func javaScriptNumber(_ value: ExpressionValue) -> Double {
        switch value {
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s): return JavaScriptNumber.parse(s)
        case .array: return JavaScriptNumber.parse(arrayText(value))
        default: return .nan
        }
    }

    /// JavaScript's `String(array)`: items joined with commas, null as nothing, nested arrays flattened.
    private static func arrayText(_ value: ExpressionValue) -> String {
        switch value {
        case .null: return ""
        case .array(let items): return items.map(arrayText).joined(separator: ",")
        case .object: return "[object Object]"
        default: return value.text
        }
    }
}
