import MapSimJSON

/// Legacy (pre-expression) property functions: `{"type", "property", "base", "stops", "default"}`,
/// checked as gl-style-validate checks them.
extension StyleValidator {
    /// The state of one function's stops while they are checked in order.
    struct FunctionContext {
        var propertySpec: JSONObject
        var functionType: String?
        /// Whether the function has a `type` at all (the categorical hint is for those that have none).
        var hasType: Bool
        var isZoomAndProperty: Bool
        var stopKeyType: String?
        var previousDomainValue: Double?
        /// The previous stop's zoom as written, whatever its type (the reference compares it as JavaScript does).
        var previousZoom: JSONValue?
        /// The categorical domain values seen, as JavaScript property names.
        var domainValues: Set<String> = []

        var supportsPropertyExpression: Bool {
            let type = propertySpec["property-type"]?.stringValue
            return type == "data-driven" || type == "cross-faded-data-driven"
        }

        var supportsZoomExpression: Bool {
            propertySpec["expression"]?["parameters"]?.arrayValue?.contains(.string("zoom")) ?? false
        }

        var supportsInterpolation: Bool {
            propertySpec["expression"]?["interpolated"] == .bool(true)
        }
    }

    mutating func validateFunction(_ object: JSONObject, path: String, whole: JSONValue, propertySpec: JSONObject) {
        let functionType = object["type"]?.stringValue
        let isZoomFunction = functionType != "categorical" && object["property"] == nil
        let stops = object["stops"]?.arrayValue
        let isZoomAndProperty: Bool = {
            if case .object? = stops?.first?.arrayValue?.first { return true }
            return false
        }()
        var context = FunctionContext(propertySpec: propertySpec, functionType: functionType, hasType: object["type"] != nil,
                                      isZoomAndProperty: isZoomAndProperty)
        if (functionType == "categorical" || isZoomAndProperty) && object["property"] == nil {
            report(path, "\"property\" property is required", value: whole)
        }
        let spec = functionSection
        for (key, value) in object.members {
            let child = Self.join(path, key)
            switch key {
            case "stops":
                validateFunctionStops(value, path: child, context: &context)
            case "default":
                validateValue(value, path: child, spec: propertySpec)
            default:
                if let entry = spec[key]?.objectValue {
                    validateValue(value, path: child, spec: entry)
                } else {
                    report(path, "unknown property \"\(key)\"", value: value, lineOf: child)
                }
            }
        }
        if functionType == "identity" && isZoomFunction {
            report(path, "missing required property \"property\"", value: whole)
        } else if functionType != "identity" && !Self.isPresent(object["stops"]) {
            report(path, "missing required property \"stops\"", value: whole)
        }
        if functionType == "exponential" && propertySpec["expression"] != nil && !context.supportsInterpolation {
            report(path, "exponential functions not supported", value: whole)
        }
        if !isZoomFunction && !context.supportsPropertyExpression {
            report(path, "property functions not supported", value: whole)
        } else if isZoomFunction && !context.supportsZoomExpression {
            report(path, "zoom functions not supported", value: whole)
        }
    }

    private mutating func validateFunctionStops(_ value: JSONValue, path: String, context: inout FunctionContext) {
        if context.functionType == "identity" {
            return report(path, "identity function may not have a \"stops\" property", value: value)
        }
        guard case .array(let stops) = value else { return reportType(path, expected: "array", found: value) }
        for (index, stop) in stops.enumerated() {
            validateFunctionStop(stop, path: "\(path)[\(index)]", context: &context)
        }
        if stops.isEmpty { report(path, "array must have at least one stop", value: value) }
    }

    private mutating func validateFunctionStop(_ stop: JSONValue, path: String, context: inout FunctionContext) {
        guard case .array(let pair) = stop else { return reportType(path, expected: "array", found: stop) }
        guard pair.count == 2 else { return report(path, "array length 2 expected, length \(pair.count) found", value: stop) }
        let keyPath = "\(path)[0]"
        if context.isZoomAndProperty {
            guard case .object(let key) = pair[0] else { return report(path, "object expected, \(pair[0].typeName) found", value: stop) }
            guard let zoom = key["zoom"] else { return report(path, "object stop key must have zoom", value: stop) }
            guard key["value"] != nil else { return report(path, "object stop key must have value", value: stop) }
            if let previous = context.previousZoom, ExpressionParser.isTruthy(previous), Self.isGreater(previous, than: zoom) {
                return report(path, "stop zoom values must appear in ascending order", value: zoom, lineOf: Self.join(keyPath, "zoom"))
            }
            if !Self.strictlyEqual(zoom, context.previousZoom) {
                context.previousZoom = zoom
                context.previousDomainValue = nil
                context.domainValues = []
            }
            for (name, member) in key.members {
                let child = Self.join(keyPath, name)
                switch name {
                case "zoom":
                    if member.numberValue == nil { reportType(child, expected: "number", found: member) }
                case "value":
                    validateStopDomainValue(member, path: child, stop: stop, context: &context)
                default:
                    report(keyPath, "unknown property \"\(name)\"", value: member, lineOf: child)
                }
            }
        } else {
            validateStopDomainValue(pair[0], path: keyPath, stop: stop, context: &context)
        }
        // The reference's `isExpression` asks `name in expressions`, so an inherited member's name
        // (`__proto__`, `toString`…) counts too.
        if Self.isExpression(pair[1]) || pair[1].arrayValue?.first?.stringValue.map(Self.objectPrototypeMembers.contains) == true {
            return report("\(path)[1]", "expressions are not allowed in function stops.", value: pair[1])
        }
        validateValue(pair[1], path: "\(path)[1]", spec: context.propertySpec)
    }

    private mutating func validateStopDomainValue(_ value: JSONValue, path: String, stop: JSONValue, context: inout FunctionContext) {
        let type = value.typeName
        let reported = value == .null ? stop : value
        // A null key is reported at the line of its stop.
        let linePath: String? = value == .null ? String(path[..<(path.lastIndex(of: "[") ?? path.endIndex)]) : nil
        if let keyType = context.stopKeyType, keyType != type {
            return report(path, "\(type) stop domain type must match previous stop domain type \(keyType)", value: reported, lineOf: linePath)
        }
        context.stopKeyType = context.stopKeyType ?? type
        guard type == "number" || type == "string" || type == "boolean" else {
            return report(path, "stop domain value must be a number, string, or boolean", value: reported, lineOf: linePath)
        }
        if type != "number" && context.functionType != "categorical" {
            var message = "number expected, \(type) found"
            if context.supportsPropertyExpression && !context.hasType {
                message += "\nIf you intended to use a categorical function, specify `\"type\": \"categorical\"`."
            }
            return report(path, message, value: reported, lineOf: linePath)
        }
        if context.functionType == "categorical", case .number(let n) = value, n.rounded() != n || !n.isFinite {
            return report(path, "integer expected, found \(JavaScriptNumber.string(n))", value: reported, lineOf: linePath)
        }
        if context.functionType != "categorical", case .number(let n) = value {
            if let previous = context.previousDomainValue, n < previous {
                return report(path, "stop domain values must appear in ascending order", value: reported, lineOf: linePath)
            }
            context.previousDomainValue = n
        }
        if context.functionType == "categorical" {
            // `value in stopDomainValues`: keys are strings (1 and "1" are one), and an object's
            // inherited members (`toString`, `__proto__`…) are always in it.
            let key = Self.javaScriptString(value)
            if context.domainValues.contains(key) || Self.objectPrototypeMembers.contains(key) {
                return report(path, "stop domain values must be unique", value: reported, lineOf: linePath)
            }
            context.domainValues.insert(key)
        }
    }

    /// The members every JavaScript object inherits.
    static let objectPrototypeMembers: Set<String> = [
        "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf",
        "__proto__", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
    ]
}
