import MapSimJSON

/// Compiles a style expression against the property it sets, with the reference's rules: the
/// expected type from the property's spec, then (for properties) whether the property accepts
/// feature data, zoom, and interpolation, and where `["zoom"]` may appear.
enum StyleExpressionCompiler {
    /// What a successful compilation knows of the expression.
    struct Compiled {
        let expression: ParsedExpression
        let isFeatureConstant: Bool
        let isZoomConstant: Bool
    }

    /// Parses and type-checks `json` as a value of the property `spec` (or of no particular type),
    /// in `flavor`'s expression language.
    static func compile(_ json: JSONValue, spec: JSONObject?, flavor: StyleSpecFlavor = .maplibre) -> Result<ParsedExpression, ExpressionCompilationError> {
        let parser = ExpressionParser(expectedType: spec.flatMap(ExpressionType.init(propertySpec:)), flavor: flavor)
        let annotation: ExpressionParser.Annotation? = spec?["type"] == .string("string") ? .coerce : nil
        guard let parsed = parser.parse(json, annotation: annotation) else { return .failure(ExpressionCompilationError(.invalidValue, parser.errors)) }
        return .success(parsed)
    }

    /// Compiles `json` as the value of the layout or paint property `spec`, with `flavor`'s rules.
    static func compileProperty(_ json: JSONValue, spec: JSONObject, flavor: StyleSpecFlavor = .maplibre) -> Result<Compiled, ExpressionCompilationError> {
        if flavor.isMapbox { return compileMapboxProperty(json, spec: spec, flavor: flavor) }
        let parsed: ParsedExpression
        switch compile(json, spec: spec) {
        case .failure(let errors): return .failure(errors)
        case .success(let expression): parsed = expression
        }
        func failure(_ message: String) -> Result<Compiled, ExpressionCompilationError> {
            .failure(ExpressionCompilationError(.invalidValue, [ExpressionError(.parse, message)]))
        }
        let propertyType = spec["property-type"]?.stringValue
        let isFeatureConstant = parsed.isFeatureConstant
        if !isFeatureConstant && propertyType != "data-driven" && propertyType != "cross-faded-data-driven" {
            return failure("data expressions not supported")
        }
        let isZoomConstant = parsed.isZoomConstant
        let parameters = spec["expression"]?["parameters"]?.arrayValue ?? []
        if !isZoomConstant && !parameters.contains(.string("zoom")) {
            return failure("zoom expressions not supported")
        }
        switch parsed.zoomCurve {
        case .none where !isZoomConstant:
            return failure("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")
        case .misplaced(let message):
            return failure(message)
        case .curve(let curve):
            if case .interpolate = curve.form, spec["expression"]?["interpolated"] != .bool(true) {
                return failure("\"interpolate\" expressions cannot be used with this property")
            }
        default:
            break
        }
        return .success(Compiled(expression: parsed, isFeatureConstant: isFeatureConstant, isZoomConstant: isZoomConstant))
    }

    /// Mapbox's rules for a property's expression: `pitch` and `distance-from-center` count as
    /// zoom, `measure-light` only where the property lists it, and `["zoom"]` anywhere in a
    /// property that relaxes the zoom restriction (fog, for one).
    private static func compileMapboxProperty(_ json: JSONValue, spec: JSONObject, flavor: StyleSpecFlavor) -> Result<Compiled, ExpressionCompilationError> {
        let parsed: ParsedExpression
        switch compile(json, spec: spec, flavor: flavor) {
        case .failure(let errors): return .failure(errors)
        case .success(let expression): parsed = expression
        }
        func failure(_ message: String) -> Result<Compiled, ExpressionCompilationError> {
            .failure(ExpressionCompilationError(.invalidValue, [ExpressionError(.parse, message)]))
        }
        let isFeatureConstant = parsed.isFeatureConstant
        if !isFeatureConstant && spec["property-type"] != .string("data-driven") {
            return failure("data expressions not supported")
        }
        let parameters = spec["expression"]?["parameters"]?.arrayValue ?? []
        let isZoomConstant = !parsed.uses(anyOf: ["zoom", "pitch", "distance-from-center"])
        if !isZoomConstant && !parameters.contains(.string("zoom")) {
            return failure("zoom expressions not supported")
        }
        if parsed.uses(anyOf: ["measure-light"]) && !parameters.contains(.string("measure-light")) {
            return failure("measure-light expression not supported")
        }
        if flavor == .mapbox && parsed.uses(anyOf: ["line-progress"]) && !parameters.contains(.string("line-progress")) {
            return failure("line-progress expression not supported")
        }
        switch mapboxZoomCurve(parsed) {
        case .none where !isZoomConstant && spec["expression"]?["relaxZoomRestriction"] != .bool(true):
            return failure("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression, or in the properties of atmosphere.")
        case .misplaced(let message):
            return failure(message)
        case .curve(let curve):
            if case .interpolate = curve.form, spec["expression"]?["interpolated"] != .bool(true) {
                return failure("\"interpolate\" expressions cannot be used with this property")
            }
        default:
            break
        }
        return .success(Compiled(expression: parsed, isFeatureConstant: isFeatureConstant, isZoomConstant: isZoomConstant))
    }

    /// The zoom curve as Mapbox finds it: a zoom `step` or `interpolate` at the top or inside `let`
    /// and `coalesce`; one below anything else is no curve (not an error), two are an error.
    private static func mapboxZoomCurve(_ expression: ParsedExpression) -> ParsedExpression.ZoomCurve {
        var result: ParsedExpression.ZoomCurve = .none
        switch expression.form {
        case .let:
            result = expression.children.last.map(mapboxZoomCurve) ?? .none
        case .coalesce:
            for child in expression.children {
                result = mapboxZoomCurve(child)
                if case .none = result { continue }
                break
            }
        case .step, .interpolate:
            if expression.children.first?.compoundName == "zoom" { result = .curve(expression) }
        default:
            break
        }
        if case .misplaced = result { return result }
        for child in expression.children {
            let found = mapboxZoomCurve(child)
            switch (result, found) {
            case (_, .misplaced):
                result = found
            case (.curve(let current), .curve(let other)) where current === other:
                break
            case (.curve, .curve), (.misplaced, .curve):
                result = .misplaced("Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
            default:
                break
            }
        }
        return result
    }
}
