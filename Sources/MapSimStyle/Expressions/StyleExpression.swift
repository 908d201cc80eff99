import MapSimJSON

/// A style expression compiled for one property (or for no property in particular), ready to
/// evaluate on features: the expression language's public face.
///
/// Legacy property functions (`{"stops": ...}`) are converted to expressions first, as the SDKs
/// convert them, so a property value from any style compiles here.
public struct StyleExpression: Sendable {
    let root: ParsedExpression
    /// The JSON the expression was compiled from.
    let source: JSONValue

    /// The result type, as the style spec writes it (`number`, `array<string>`, `color`, ...).
    public var type: String { root.type.description }
    /// Whether the value is the same for every feature.
    public let isFeatureConstant: Bool
    /// Whether the value depends on the feature's geometry (`within`, `distance`).
    public var readsGeometry: Bool { root.readsGeometry }
    /// Whether the value is the same at every zoom.
    public let isZoomConstant: Bool
    private let isColor: Bool

    /// Compiles `json` as the value of the property `spec` (the property's entry of the style
    /// spec: `type`, `property-type`, `expression`), or as an expression of any type without one.
    ///
    /// With `propertyRules` false only the type is checked, as for a layer filter, where
    /// `["zoom"]` may appear anywhere. `flavor` is whose expression language: Mapbox's has
    /// `config`, `hsl`, `pitch` and its other operators, and reads an array that names no
    /// operator as an array of literals.
    public static func compile(_ json: JSONValue, propertySpec spec: JSONObject?, propertyRules: Bool = true,
                               flavor: StyleSpecFlavor = .maplibre) -> Result<StyleExpression, ExpressionCompilationError> {
        var expression = json
        if let spec, case .object(let function) = json {
            do {
                expression = try LegacyFunction.expression(from: function, spec: spec)
            } catch {
                return .failure(ExpressionCompilationError(.invalidValue, [error]))
            }
        }
        let result: Result<StyleExpressionCompiler.Compiled, ExpressionCompilationError>
        if let spec, propertyRules {
            result = StyleExpressionCompiler.compileProperty(expression, spec: spec, flavor: flavor)
        } else {
            result = StyleExpressionCompiler.compile(expression, spec: spec, flavor: flavor).map { parsed in
                StyleExpressionCompiler.Compiled(expression: parsed, isFeatureConstant: parsed.isFeatureConstant, isZoomConstant: parsed.isZoomConstant)
            }
        }
        switch result {
        case .success(let compiled):
            return .success(StyleExpression(root: compiled.expression, source: json, isFeatureConstant: compiled.isFeatureConstant,
                                            isZoomConstant: compiled.isZoomConstant, isColor: compiled.expression.type == .color))
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// Every value the expression can produce, as MapLibre Native lists them (for the font stacks an
    /// offline region downloads): the literals of its branches and stops; nil for an output known
    /// only on evaluation (a `get`, say).
    public var possibleOutputs: [ExpressionValue?] {
        root.possibleOutputs
    }

    /// The expression's value in `context`, or the runtime error the reference would raise.
    public func evaluate(_ context: ExpressionContext) throws(ExpressionError) -> ExpressionValue {
        try ExpressionEvaluator(context: context).evaluate(root)
    }

    /// A value as the reference's test harness writes an output of this expression: a color
    /// result as `[r, g, b, a]`.
    public func outputJSON(_ value: ExpressionValue) -> JSONValue {
        value.json(topLevel: isColor)
    }
}
