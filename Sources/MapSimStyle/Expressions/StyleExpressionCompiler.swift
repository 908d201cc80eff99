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

    /// Parses and type-checks `json` as a value of the property `spec` (or of no particular type).
    static func compile(_ json: JSONValue, spec: JSONObject?) -> Result<ParsedExpression, ExpressionCompilationError> {
        let parser = ExpressionParser(expectedType: spec.flatMap(ExpressionType.init(propertySpec:)))
        let annotation: ExpressionParser.Annotation? = spec?["type"] == .string("string") ? .coerce : nil
        guard let parsed = parser.parse(json, annotation: annotation) else { return .failure(ExpressionCompilationError(.invalidValue, parser.errors)) }
        return .success(parsed)
    }

    /// Compiles `json` as the value of the layout or paint property `spec`.
    static func compileProperty(_ json: JSONValue, spec: JSONObject) -> Result<Compiled, ExpressionCompilationError> {
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
}
