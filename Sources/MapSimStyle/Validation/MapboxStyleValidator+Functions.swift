import MapSimJSON

/// Legacy property functions (`{"type", "property", "base", "stops", "default"}`), as Mapbox's
/// validator checks them.
extension MapboxStyleValidator {
    /// The state of one function's stops while they are checked in order.
    private final class StopState {
        var keyType: String?
        var previousDomainValue: Double?
        var previousZoom: Double?
        var domainValues: Set<String> = []
    }

    mutating func validateFunction(_ options: Options) -> [StyleDiagnostic] {
        let function = options.value?.objectValue ?? JSONObject()
        let propertySpec = options.valueSpec ?? JSONObject()
        let functionType = function["type"]
        let typeName = functionType.map { StyleValidator.javaScriptString($0) }
        let isZoomFunction = typeName != "categorical" && function["property"] == nil
        let stops = function["stops"]?.arrayValue
        let isZoomAndProperty: Bool = {
            if case .object? = stops?.first?.arrayValue?.first { return true }
            return false
        }()
        let state = StopState()
        let isDataDriven = propertySpec["property-type"] == .string("data-driven")
        var object = options
        object.valueSpec = section("function")
        var errors = validateObject(object, elementValidators: [
            "stops": { validator, member in
                if typeName == "identity" {
                    return [validator.error(member, "identity function may not have a \"stops\" property")]
                }
                var stopsOptions = member
                stopsOptions.valueSpec = validator.section("function")?["stops"]?.objectValue
                var errors = validator.validateArray(stopsOptions) { validator, stop in
                    validator.validateStop(stop, propertySpec: propertySpec, typeName: typeName, isZoomAndProperty: isZoomAndProperty, state: state)
                }
                if case .array(let elements)? = member.value, elements.isEmpty {
                    errors.append(validator.error(member, "array must have at least one stop"))
                }
                return errors
            },
            "default": { validator, member in
                var defaultOptions = member
                defaultOptions.valueSpec = propertySpec
                return validator.validate(defaultOptions)
            },
        ])
        if typeName == "identity" && isZoomFunction {
            errors.append(error(options, "missing required property \"property\""))
        }
        if typeName != "identity" && !StyleValidator.isPresent(function["stops"]) {
            errors.append(error(options, "missing required property \"stops\""))
        }
        if typeName == "exponential" && propertySpec["expression"] != nil && propertySpec["expression"]?["interpolated"] != .bool(true) {
            errors.append(error(options, "exponential functions not supported"))
        }
        let parameters = propertySpec["expression"]?["parameters"]?.arrayValue ?? []
        if !isZoomFunction && !isDataDriven {
            errors.append(error(options, "property functions not supported"))
        } else if isZoomFunction && !parameters.contains(.string("zoom")) {
            errors.append(error(options, "zoom functions not supported"))
        }
        if (typeName == "categorical" || isZoomAndProperty) && function["property"] == nil {
            errors.append(error(options, "\"property\" property is required"))
        }
        return errors
    }

    /// One stop: `[domain, output]`, the domain an object of zoom and value for zoom-and-property functions.
    private mutating func validateStop(_ options: Options, propertySpec: JSONObject, typeName: String?, isZoomAndProperty: Bool,
                                       state: StopState) -> [StyleDiagnostic] {
        guard case .array(let pair)? = options.value else {
            return [error(options, "array expected, \(Self.typeName(options.value)) found")]
        }
        guard pair.count == 2 else { return [error(options, "array length 2 expected, length \(pair.count) found")] }
        let key = options.key
        let path = options.path
        var errors: [StyleDiagnostic] = []
        let isDataDriven = propertySpec["property-type"] == .string("data-driven")
        if isZoomAndProperty {
            guard case .object(let domain) = pair[0] else { return [error(options, "object expected, \(pair[0].typeName) found")] }
            guard let zoomValue = domain["zoom"] else { return [error(options, "object stop key must have zoom")] }
            guard domain["value"] != nil else { return [error(options, "object stop key must have value")] }
            let zoomPath = path.map { "\($0)[0].zoom" }
            guard case .number(let zoom) = zoomValue else { return [error(key, "stop zoom values must be numbers", value: zoomValue, path: zoomPath)] }
            if let previous = state.previousZoom, previous != 0, previous > zoom {
                return [error(key, "stop zoom values must appear in ascending order", value: zoomValue, path: zoomPath)]
            }
            if zoom != state.previousZoom {
                state.previousZoom = zoom
                state.previousDomainValue = nil
                state.domainValues = []
            }
            var domainOptions = options.child(key: "\(key)[0]", value: pair[0], path: path.map { "\($0)[0]" }, valueSpec: JSONObject([("zoom", .object(JSONObject()))]))
            domainOptions.object = domain
            errors += validateObject(domainOptions, elementValidators: [
                "zoom": { validator, member in validator.validateNumber(member) },
                "value": { validator, member in
                    validator.validateDomainValue(member, container: pair[0], containerPath: path.map { "\($0)[0]" }, typeName: typeName,
                                                  isDataDriven: isDataDriven, state: state)
                },
            ])
        } else {
            let domain = options.child(key: "\(key)[0]", value: pair[0], path: path.map { "\($0)[0]" }, valueSpec: JSONObject())
            errors += validateDomainValue(domain, container: options.value, containerPath: path, typeName: typeName, isDataDriven: isDataDriven, state: state)
        }
        let output = options.child(key: "\(key)[1]", value: pair[1], path: path.map { "\($0)[1]" }, valueSpec: propertySpec)
        // The reference's `op in definitions`: an inherited member of Object.prototype counts too.
        if isExpression(pair[1]) || pair[1].arrayValue?.first?.stringValue.map(StyleValidator.objectPrototypeMembers.contains) == true {
            return errors + [error(output, "expressions are not allowed in function stops.")]
        }
        return errors + validate(output)
    }

    /// A stop's domain value; a null one is reported at the line of what holds it.
    private func validateDomainValue(_ options: Options, container: JSONValue?, containerPath: String?, typeName: String?, isDataDriven: Bool,
                                     state: StopState) -> [StyleDiagnostic] {
        let value = options.value ?? .null
        let type = Self.typeName(options.value)
        func report(_ message: String) -> [StyleDiagnostic] {
            value == .null ? [error(options.key, message, value: container, path: containerPath)] : [error(options, message)]
        }
        if let keyType = state.keyType {
            if type != keyType { return report("\(type) stop domain type must match previous stop domain type \(keyType)") }
        } else {
            state.keyType = type
        }
        guard ["number", "string", "boolean"].contains(type) else { return report("stop domain value must be a number, string, or boolean") }
        if type != "number" && typeName != "categorical" {
            var message = "number expected, \(type) found"
            if isDataDriven && typeName == nil { message += "\nIf you intended to use a categorical function, specify `\"type\": \"categorical\"`." }
            return report(message)
        }
        if typeName == "categorical", case .number(let number) = value, !number.isFinite || number.rounded(.down) != number {
            return report("integer expected, found \(JavaScriptNumber.string(number))")
        }
        if typeName != "categorical", case .number(let number) = value, let previous = state.previousDomainValue, number < previous {
            return report("stop domain values must appear in ascending order")
        }
        if case .number(let number) = value { state.previousDomainValue = number } else { state.previousDomainValue = nil }
        if typeName == "categorical" {
            let name = StyleValidator.javaScriptString(value)
            if state.domainValues.contains(name) || StyleValidator.objectPrototypeMembers.contains(name) {
                return report("stop domain values must be unique")
            }
            state.domainValues.insert(name)
        }
        return []
    }
}
