import MapSimJSON

/// Converts a legacy property function (`{"stops": ..., "property": ..., "type": ...}`) into the
/// expression the reference converts it to, so that it compiles and evaluates like any expression:
/// identity, exponential, interval and categorical functions of the zoom, of a feature property, or
/// of both, with `base`, `default`, `colorSpace`, and `{token}` strings in zoom stops.
public enum LegacyFunction {
    /// Whether `value` is written as a legacy function (a JSON object).
    public static func isFunction(_ value: JSONValue) -> Bool {
        value.objectValue != nil
    }

    /// The expression equivalent to `function` for the property `spec`.
    public static func expression(from function: JSONObject, spec: JSONObject) throws(ExpressionError) -> JSONValue {
        guard let stops = function["stops"]?.arrayValue else {
            return identity(function, spec: spec)
        }
        let firstInput = stops.first?.arrayValue?.first
        let zoomAndProperty = firstInput.map(isObjectLike) ?? false
        let propertyDependent = zoomAndProperty || function["property"] != nil
        let hasTokens = spec["tokens"].map(ExpressionParser.isTruthy) ?? false
        let converted = stops.map { stop -> (JSONValue, JSONValue) in
            let pair = stop.arrayValue ?? []
            let input = pair.first ?? .null
            let output = pair.count > 1 ? pair[1] : .null
            if !propertyDependent, hasTokens, case .string(let text) = output { return (input, TokenReplacer.tokenExpression(text)) }
            return (input, literal(output))
        }
        if zoomAndProperty { return try zoomAndPropertyFunction(function, spec: spec, stops: converted) }
        if propertyDependent { return try propertyFunction(function, spec: spec, stops: converted) }
        return try zoomFunction(function, spec: spec, stops: converted)
    }

    /// JavaScript's `typeof value === 'object'`: objects, arrays and null.
    private static func isObjectLike(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array, .null: true
        default: false
        }
    }

    private static func literal(_ value: JSONValue) -> JSONValue {
        isObjectLike(value) ? .array([.string("literal"), value]) : value
    }

    private static func identity(_ function: JSONObject, spec: JSONObject) -> JSONValue {
        let get = JSONValue.array([.string("get"), function["property"] ?? .null])
        let type = spec["type"]?.stringValue ?? ""
        guard let fallback = function["default"] else {
            return type == "string" ? .array([.string("string"), get]) : get
        }
        if type == "enum" {
            let names: [JSONValue]
            switch spec["values"] {
            case .object(let values)?: names = values.members.map { .string($0.key) }
            case .array(let values)?: names = values.indices.map { .string(String($0)) }
            default: names = []
            }
            return .array([.string("match"), get, .array(names), get, fallback])
        }
        var expression: [JSONValue] = [.string(type == "color" ? "to-color" : type), get, literal(fallback)]
        if type == "array" { expression.insert(contentsOf: [spec["value"] ?? .null, spec["length"] ?? .null], at: 1) }
        return .array(expression)
    }

    private static func interpolateOperator(_ function: JSONObject) -> JSONValue {
        switch function["colorSpace"]?.stringValue {
        case "hcl": .string("interpolate-hcl")
        case "lab": .string("interpolate-lab")
        default: .string("interpolate")
        }
    }

    /// The function's type, or the one its property implies: exponential when interpolatable.
    private static func functionType(_ function: JSONObject, spec: JSONObject) -> String {
        if let type = function["type"]?.stringValue { return type }
        return spec["expression"]?["interpolated"] == .bool(true) ? "exponential" : "interval"
    }

    private static func curve(_ head: [JSONValue], _ stops: [(JSONValue, JSONValue)], isStep: Bool) -> JSONValue {
        var expression = head
        for (input, output) in stops {
            // Duplicate stop inputs were never rejected in functions; the first one wins.
            if expression.count > 3, Self.strictlyEqual(input, expression[expression.count - 2]) { continue }
            if !(isStep && expression.count == 2) { expression.append(input) }
            expression.append(output)
        }
        // A step with one output is a constant: give it a no-op stop, as the reference does.
        if isStep, expression.count == 3 { expression += [.number(0), expression[2]] }
        return .array(expression)
    }

    private static func strictlyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number, .number), (.string, .string), (.bool, .bool), (.null, .null): a == b
        default: false
        }
    }

    private static func fallback(_ function: JSONObject, spec: JSONObject) -> JSONValue {
        if let value = function["default"] ?? spec["default"] { return literal(value) }
        return spec["type"]?.stringValue == "resolvedImage" ? .string("") : .null
    }

    private static func propertyFunction(_ function: JSONObject, spec: JSONObject, stops: [(JSONValue, JSONValue)]) throws(ExpressionError) -> JSONValue {
        let type = functionType(function, spec: spec)
        let get = JSONValue.array([.string("get"), function["property"] ?? .null])
        func withDefault(_ expression: JSONValue) -> JSONValue {
            guard let fallback = function["default"] else { return expression }
            return .array([.string("case"), .array([.string("=="), .array([.string("typeof"), get]), .string("number")]), expression, literal(fallback)])
        }
        switch type {
        case "categorical":
            if case .bool? = stops.first?.0 {
                var expression: [JSONValue] = [.string("case")]
                for (input, output) in stops { expression += [.array([.string("=="), get, input]), output] }
                return .array(expression + [fallback(function, spec: spec)])
            }
            guard case .array(var expression) = curve([.string("match"), get], stops, isStep: false) else { return .null }
            expression.append(fallback(function, spec: spec))
            return .array(expression)
        case "interval":
            return withDefault(curve([.string("step"), .array([.string("number"), get])], stops, isStep: true))
        case "exponential":
            let base = function["base"]?.numberValue ?? 1
            let interpolation: JSONValue = base == 1 ? .array([.string("linear")]) : .array([.string("exponential"), .number(base)])
            return withDefault(curve([interpolateOperator(function), interpolation, .array([.string("number"), get])], stops, isStep: false))
        default:
            throw ExpressionError(.legacyFunction, "Unknown property function type \(type)")
        }
    }

    private static func zoomFunction(_ function: JSONObject, spec: JSONObject, stops: [(JSONValue, JSONValue)]) throws(ExpressionError) -> JSONValue {
        let zoom = JSONValue.array([.string("zoom")])
        switch functionType(function, spec: spec) {
        case "interval":
            return curve([.string("step"), zoom], stops, isStep: true)
        case "exponential":
            let base = function["base"]?.numberValue ?? 1
            let interpolation: JSONValue = base == 1 ? .array([.string("linear")]) : .array([.string("exponential"), .number(base)])
            return curve([interpolateOperator(function), interpolation, zoom], stops, isStep: false)
        case let type:
            throw ExpressionError(.legacyFunction, "Unknown zoom function type \"\(type)\"")
        }
    }

    private static func zoomAndPropertyFunction(_ function: JSONObject, spec: JSONObject, stops: [(JSONValue, JSONValue)]) throws(ExpressionError) -> JSONValue {
        var zooms: [JSONValue] = []
        var stopsByZoom: [String: [(JSONValue, JSONValue)]] = [:]
        for (input, output) in stops {
            let zoom = input["zoom"] ?? .null
            let key = ExpressionParser.javaScriptString(zoom)
            if stopsByZoom[key] == nil {
                zooms.append(zoom)
                stopsByZoom[key] = []
            }
            stopsByZoom[key]?.append((input["value"] ?? .null, output))
        }
        var inner = JSONObject()
        for name in ["type", "property", "default"] {
            if let value = function[name] { inner[name] = value }
        }
        let isInterpolated = functionType(JSONObject(), spec: spec) == "exponential"
        var zoomStops: [(JSONValue, JSONValue)] = []
        for zoom in zooms {
            zoomStops.append((zoom, try propertyFunction(inner, spec: spec, stops: stopsByZoom[ExpressionParser.javaScriptString(zoom)] ?? [])))
        }
        let zoomInput = JSONValue.array([.string("zoom")])
        if isInterpolated {
            return curve([interpolateOperator(function), .array([.string("linear")]), zoomInput], zoomStops, isStep: false)
        }
        return curve([.string("step"), zoomInput], zoomStops, isStep: true)
    }
}
