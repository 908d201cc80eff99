/// One node of a parsed, type-checked style expression.
///
/// The node keeps its type, its children in the reference's order, and its form with what
/// evaluation needs (stops, interpolation curve, format sections, geometry): enough to tell whether
/// it depends on the feature, the zoom or feature state, whether its outputs are literals, and to
/// evaluate it.
final class ParsedExpression: Sendable {
    /// What kind of node this is, with the parts specific to it.
    enum Form: Sendable {
        case literal(ExpressionValue)
        /// An operator of the compound table (`get`, `+`, `concat`, ...), by name, and resolved.
        case compound(String, CompoundOperator)
        case assertion
        case coercion
        case `let`
        /// A variable, with the expression bound to it (not a child).
        case variable(ParsedExpression)
        /// `step`: children are the input then the outputs.
        case step(labels: [Double])
        /// `interpolate*`: children are the input then the outputs.
        case interpolate(labels: [Double], curve: InterpolationCurve, space: RGBAColor.Space)
        /// `match`: children are the input, the outputs, then the fallback; the labels lead to
        /// the output at their index.
        case match(MatchTable)
        case `case`
        case coalesce
        case comparison(String, collator: Bool)
        case collator
        /// `format`: the children of each section, by index.
        case format([FormatSectionSlots])
        case image
        case `in`
        case indexOf
        case slice
        case at
        case length
        /// `number-format`: children are the number, then the options present, by index.
        case numberFormat(NumberFormatSlots)
        case within(GeoJSONShape)
        case distance(GeoJSONShape)
        case globalState(String)
    }

    /// How `interpolate` blends between two stops.
    enum InterpolationCurve: Sendable {
        case linear
        case exponential(base: Double)
        case cubicBezier(UnitBezier)
    }

    /// The branch labels of a `match`, by value: all strings or all numbers, as the reference requires.
    struct MatchTable: Sendable {
        /// By UTF-16 code units, as JavaScript keys strings: "é" and "e\u{301}" are two labels.
        var strings: [[UInt16]: Int] = [:]
        var numbers: [Double: Int] = [:]

        init(_ labelSets: [[ExpressionValue]]) {
            for (index, labels) in labelSets.enumerated() {
                for label in labels {
                    switch label {
                    case .string(let text): strings[Array(text.utf16)] = strings[Array(text.utf16)] ?? index
                    case .number(let n): numbers[n] = numbers[n] ?? index
                    default: break
                    }
                }
            }
        }

        /// The index of the output `input` leads to, or nil for the fallback.
        func branch(for input: ExpressionValue) -> Int? {
            switch input {
            case .string(let text): strings[Array(text.utf16)]
            case .number(let n): numbers[n]
            default: nil
            }
        }
    }

    /// Where the parts of one `format` section are among the node's children.
    struct FormatSectionSlots: Sendable {
        var content: Int
        var scale: Int?
        var font: Int?
        var textColor: Int?
        var verticalAlign: Int?

        /// Notes that the option `name` (`font-scale`, `text-font`, `text-color`,
        /// `vertical-align`) is the child at `index`. A plain switch rather than key paths: a key
        /// path's first use has the runtime look its types up by name, which a style's first
        /// `format` paid on the check's critical path.
        mutating func setOption(_ name: String, child index: Int) {
            switch name {
            case "font-scale": scale = index
            case "text-font": font = index
            case "text-color": textColor = index
            case "vertical-align": verticalAlign = index
            default: break
            }
        }
    }

    /// Where the options of `number-format` are among the node's children.
    struct NumberFormatSlots: Sendable {
        var locale: Int?
        var currency: Int?
        var unit: Int?
        var minFractionDigits: Int?
        var maxFractionDigits: Int?

        /// Notes that the option `name` is the child at `index` (a switch, as `FormatSectionSlots`).
        mutating func setOption(_ name: String, child index: Int) {
            switch name {
            case "locale": locale = index
            case "currency": currency = index
            case "unit": unit = index
            case "min-fraction-digits": minFractionDigits = index
            case "max-fraction-digits": maxFractionDigits = index
            default: break
            }
        }
    }

    /// What an expression reads besides its literals: the feature, and the global inputs the
    /// rules of the reference single out.
    struct Inputs: OptionSet, Sendable {
        let rawValue: UInt8
        static let feature = Inputs(rawValue: 1 << 0)
        static let featureState = Inputs(rawValue: 1 << 1)
        static let zoom = Inputs(rawValue: 1 << 2)
        /// `heatmap-density`, `elevation`, `line-progress`, `accumulated` and `is-supported-script`
        /// (and Mapbox's `pitch`, `distance-from-center`, `measure-light`, `raster-value`,
        /// `sky-radial-progress`, `config` and `random`): inputs that only stop constant folding.
        static let otherGlobals = Inputs(rawValue: 1 << 3)
    }

    let form: Form
    let type: ExpressionType
    let children: [ParsedExpression]
    /// What this expression and its children read, worked out once when the node is built.
    let inputs: Inputs

    init(_ form: Form, type: ExpressionType, children: [ParsedExpression] = []) {
        self.form = form
        self.type = type
        self.children = children
        inputs = children.reduce(Self.ownInputs(form, argumentCount: children.count)) { $0.union($1.inputs) }
    }

    /// What the node itself reads, apart from its children.
    private static func ownInputs(_ form: Form, argumentCount: Int) -> Inputs {
        switch form {
        case .within, .distance:
            return .feature
        case .compound(let name, _):
            switch name {
            case "get", "has": return argumentCount == 1 ? .feature : []
            case "feature-state": return [.feature, .featureState]
            case "properties", "geometry-type", "id": return .feature
            case "zoom": return .zoom
            case "heatmap-density", "elevation", "line-progress", "accumulated", "is-supported-script": return .otherGlobals
            // Mapbox's globals, its configuration and its random numbers are never folded either.
            case "pitch", "distance-from-center", "measure-light", "raster-value", "sky-radial-progress", "config", "random", "worldview",
                 "is-active-floor", "raster-particle-speed": return .otherGlobals
            default: return name.hasPrefix("filter-") ? .feature : []
            }
        default:
            return []
        }
    }

    /// Whether this expression or one of its children reads the feature's geometry.
    var readsGeometry: Bool {
        switch form {
        case .within, .distance: return true
        case .variable(let bound): return bound.readsGeometry
        default: return children.contains { $0.readsGeometry }
        }
    }

    /// Whether the static type is `value`: its runtime type is checked where it matters.
    var isUntyped: Bool {
        if case .value = type { return true }
        return false
    }

    /// Whether this expression or one of its children is a compound operator named in `names`
    /// (the bound expression of a variable is not looked into, as the reference's walks do not).
    func uses(anyOf names: Set<String>) -> Bool {
        if let name = compoundName, names.contains(name) { return true }
        return children.contains { $0.uses(anyOf: names) }
    }

    /// The compound operator's name, or nil.
    var compoundName: String? {
        if case .compound(let name, _) = form { return name }
        return nil
    }

    var isLiteral: Bool {
        if case .literal = form { return true }
        return false
    }

    /// Whether the value does not depend on the feature (its properties, id, geometry or state).
    var isFeatureConstant: Bool { !inputs.contains(.feature) }

    /// Whether the value does not depend on feature state.
    var isStateConstant: Bool { !inputs.contains(.featureState) }

    /// Whether the value does not depend on the zoom.
    var isZoomConstant: Bool { !inputs.contains(.zoom) }

    /// Whether every value the expression can produce is written as a literal in it.
    var isOutputDefined: Bool {
        switch form {
        case .literal, .comparison, .in: return true
        case .assertion, .coercion, .coalesce: return children.allSatisfy(\.isOutputDefined)
        case .let: return children.last?.isOutputDefined ?? false
        case .step, .interpolate, .match: return children.dropFirst().allSatisfy(\.isOutputDefined)
        case .case: return children.enumerated().allSatisfy { index, child in index % 2 == 1 || index == children.count - 1 ? child.isOutputDefined : true }
        default: return false
        }
    }

    /// Every value the expression can produce, as MapLibre Native's `possibleOutputs` lists them:
    /// the literals of its branches and stops; nil for an output only known on evaluation.
    var possibleOutputs: [ExpressionValue?] {
        switch form {
        case .literal(let value): return [value]
        case .assertion, .coalesce: return children.flatMap(\.possibleOutputs)
        case .let: return children.last?.possibleOutputs ?? [nil]
        case .step, .interpolate, .match: return children.dropFirst().flatMap(\.possibleOutputs)
        case .case: return children.enumerated().filter { $0.offset % 2 == 1 || $0.offset == children.count - 1 }.flatMap(\.element.possibleOutputs)
        default: return [nil]
        }
    }

    /// Whether the reference would evaluate the expression at parse time and keep its value.
    var isConstant: Bool {
        switch form {
        case .variable(let bound): return bound.isConstant
        case .collator, .within, .distance, .globalState: return false
        case .compound(_, .error): return false
        default: break
        }
        let childrenConstant: Bool
        switch form {
        case .assertion, .coercion: childrenConstant = children.allSatisfy(\.isConstant)
        default: childrenConstant = children.allSatisfy(\.isLiteral)
        }
        return childrenConstant && inputs.isDisjoint(with: [.feature, .zoom, .otherGlobals])
    }

    /// The zoom curve the expression is built around: a `step` or `interpolate` on `["zoom"]` at the
    /// top, or inside `let` and `coalesce`.
    enum ZoomCurve {
        case none
        case curve(ParsedExpression)
        case misplaced(String)
    }

    var zoomCurve: ZoomCurve {
        var result: ZoomCurve = .none
        switch form {
        case .let:
            result = children.last?.zoomCurve ?? .none
        case .coalesce:
            for child in children {
                result = child.zoomCurve
                if case .none = result { continue }
                break
            }
        case .step, .interpolate:
            if children.first?.compoundName == "zoom" { result = .curve(self) }
        default:
            break
        }
        if case .misplaced = result { return result }
        for child in children {
            switch child.zoomCurve {
            case .misplaced(let message):
                result = .misplaced(message)
            case .curve(let curve):
                switch result {
                case .none:
                    result = .misplaced("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")
                case .curve(let found) where found === curve:
                    break
                default:
                    result = .misplaced("Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
                }
            case .none:
                break
            }
        }
        return result
    }
}
