import MapSimJSON

/// Layers, their layout and paint properties, filters and expressions, as Mapbox's validator
/// checks them.
extension MapboxStyleValidator {
    /// A layer: type or ref, duplicate ids, the ref or the source (none for background, sky and
    /// slot layers), then its members.
    mutating func validateLayer(_ options: Options) -> [StyleDiagnostic] {
        let key = options.key
        let path = options.path ?? ""
        if isCurrent, options.value?.objectValue == nil { return [error(options, "object expected")] }
        let layer = options.value?.objectValue ?? JSONObject()
        func member(_ name: String) -> String { StyleValidator.join(path, name) }
        var errors: [StyleDiagnostic] = []
        if !StyleValidator.isPresent(layer["type"]) && !StyleValidator.isPresent(layer["ref"]) {
            errors.append(error(key, "either \"type\" or \"ref\" is required", value: options.value, path: path))
        }
        var type = layer["type"]
        let ref = layer["ref"]
        let layers = options.style?["layers"]?.arrayValue ?? []
        if StyleValidator.isPresent(layer["id"]) {
            for index in 0..<min(options.arrayIndex ?? 0, layers.count) where StyleValidator.strictlyEqual(layers[index].objectValue?["id"], layer["id"]) {
                let previous = lines.line(StyleValidator.join(options.stylePath, "layers[\(index)].id")).map(String.init) ?? "undefined"
                errors.append(error(key, "duplicate layer id \"\(StyleValidator.javaScriptString(layer["id"]))\", previously used at line \(previous)",
                                    value: layer["id"], path: member("id")))
            }
        }
        if layer["ref"] != nil {
            for name in ["type", "source", "source-layer", "filter", "layout"] where layer[name] != nil {
                errors.append(error(key, "\"\(name)\" is prohibited for ref layers", value: layer[name], path: member(name)))
            }
            if let parent = layers.last(where: { StyleValidator.strictlyEqual($0.objectValue?["id"], ref) })?.objectValue {
                if StyleValidator.isPresent(parent["ref"]) {
                    errors.append(error(key, "ref cannot reference another ref layer", value: ref, path: member("ref")))
                } else {
                    type = parent["type"]
                }
            } else if case .string(let name)? = ref {
                errors.append(error(key, "ref layer \"\(name)\" not found", value: ref, path: member("ref")))
            }
        } else if !["background", "sky", "slot"].contains(where: { StyleValidator.strictlyEqual(type, .string($0)) }) {
            errors += checkSource(of: layer, type: type, options: options)
        }
        let layerType = type
        let layerSpec = section("layer") ?? JSONObject()
        var objectOptions = options
        objectOptions.valueSpec = layerSpec
        var elementValidators: [String: Validator] = [
            "*": { _, _ in [] },
            "type": { validator, member in
                var typeOptions = member
                typeOptions.key = "\(key).type"
                typeOptions.value = layer["type"]
                typeOptions.path = StyleValidator.join(path, "type")
                typeOptions.valueSpec = layerSpec["type"]?.objectValue
                return validator.validate(typeOptions)
            },
            "filter": { validator, member in
                var filter = member
                filter.layerType = layerType
                return validator.validateFilter(filter)
            },
            "layout": { validator, member in validator.validateProperties(member, group: "layout", layer: layer, layerType: layerType) },
            "paint": { validator, member in validator.validateProperties(member, group: "paint", layer: layer, layerType: layerType) },
        ]
        if isCurrent {
            elementValidators["appearances"] = { validator, member in validator.validateAppearances(member, layer: layer, layerType: layerType) }
        }
        errors += validateObject(objectOptions, elementValidators: elementValidators)
        return errors
    }

    /// The source rules of a layer that is not a ref, in the reference's order.
    private func checkSource(of layer: JSONObject, type: JSONValue?, options: Options) -> [StyleDiagnostic] {
        let key = options.key
        let path = options.path ?? ""
        let name = StyleValidator.javaScriptString(layer["id"])
        guard let sourceName = layer["source"], sourceName != .null else {
            return [error(key, "missing required property \"source\"", value: options.value, path: path)]
        }
        let sourcePath = StyleValidator.join(path, "source")
        if isCurrent {
            guard case .string = sourceName else { return [error("\(key).source", "\"source\" must be a string", value: sourceName, path: sourcePath)] }
            return checkCurrentSource(of: layer, named: sourceName, type: type, options: options)
        }
        let (found, shared) = sharedSourceRules(of: layer, named: sourceName, type: type, options: options)
        guard let source = found, shared.isEmpty else { return shared }
        let sourceType = source.objectValue?["type"]
        func sourceIs(_ name: String) -> Bool { StyleValidator.strictlyEqual(sourceType, .string(name)) }
        func layerIs(_ name: String) -> Bool { StyleValidator.strictlyEqual(type, .string(name)) }
        if layerIs("line"), let paint = layer["paint"], StyleValidator.isPresent(paint),
                  StyleValidator.isPresent(paint.objectValue?["line-gradient"]) || StyleValidator.isPresent(paint.objectValue?["line-trim-offset"]),
                  !(sourceIs("geojson") && StyleValidator.isPresent(source.objectValue?["lineMetrics"])) {
            return [error(key, "layer \"\(name)\" specifies a line-gradient, which requires a GeoJSON source with `lineMetrics` enabled.",
                          value: options.value, path: path)]
        }
        return []
    }

    /// The source rules of the current validator, for a layer whose source is a string.
    private func checkCurrentSource(of layer: JSONObject, named sourceName: JSONValue, type: JSONValue?, options: Options) -> [StyleDiagnostic] {
        let key = options.key
        let path = options.path ?? ""
        let name = StyleValidator.javaScriptString(layer["id"])
        let sourcePath = StyleValidator.join(path, "source")
        let (found, shared) = sharedSourceRules(of: layer, named: sourceName, type: type, options: options)
        guard let source = found, shared.isEmpty else { return shared }
        let sourceType = source.objectValue?["type"]
        func sourceIs(_ name: String) -> Bool { StyleValidator.strictlyEqual(sourceType, .string(name)) }
        func layerIs(_ name: String) -> Bool { StyleValidator.strictlyEqual(type, .string(name)) }
        if sourceIs("raster-array") && !layerIs("raster") && !layerIs("raster-particle") {
            return [error(key, "raster-array source can only be used with layer type 'raster'.", value: sourceName, path: sourcePath)]
        } else if layerIs("line"), let paint = layer["paint"], StyleValidator.isPresent(paint),
                  StyleValidator.isPresent(paint.objectValue?["line-gradient"]) || StyleValidator.isPresent(paint.objectValue?["line-trim-offset"]),
                  sourceIs("geojson") && !StyleValidator.isPresent(source.objectValue?["lineMetrics"]) {
            return [error(key, "layer \"\(name)\" specifies a line-gradient, which requires the GeoJSON source to have `lineMetrics` enabled.",
                          value: options.value, path: path)]
        } else if layerIs("raster-particle") && !sourceIs("raster-array") {
            return [error(key, "layer \"\(name)\" requires a 'raster-array' source.", value: sourceName, path: sourcePath)]
        }
        return []
    }

    /// The source rules of both Mapbox validators, in their order: the source exists, and vector,
    /// raster and raster-dem sources feed the layers they can. The source found (nil when it is
    /// not), and what these rules report.
    private func sharedSourceRules(of layer: JSONObject, named sourceName: JSONValue, type: JSONValue?,
                                   options: Options) -> (source: JSONValue?, diagnostics: [StyleDiagnostic]) {
        let key = options.key
        let path = options.path ?? ""
        let name = StyleValidator.javaScriptString(layer["id"])
        let sourcePath = StyleValidator.join(path, "source")
        guard let source = StyleValidator.member(of: options.style.map(JSONValue.object)?["sources"], named: sourceName), source != .null else {
            return (nil, [error(key, "source \"\(StyleValidator.javaScriptString(sourceName))\" not found", value: sourceName, path: sourcePath)])
        }
        let sourceType = source.objectValue?["type"]
        func sourceIs(_ name: String) -> Bool { StyleValidator.strictlyEqual(sourceType, .string(name)) }
        func layerIs(_ name: String) -> Bool { StyleValidator.strictlyEqual(type, .string(name)) }
        if sourceIs("vector") && layerIs("raster") {
            return (source, [error(key, "layer \"\(name)\" requires a raster source", value: sourceName, path: sourcePath)])
        } else if sourceIs("raster") && !layerIs("raster") {
            return (source, [error(key, "layer \"\(name)\" requires a vector source", value: sourceName, path: sourcePath)])
        } else if sourceIs("vector") && !StyleValidator.isPresent(layer["source-layer"]) {
            return (source, [error(key, "layer \"\(name)\" must specify a \"source-layer\"", value: options.value, path: path)])
        } else if sourceIs("raster-dem") && !layerIs("hillshade") {
            return (source, [error(key, "raster-dem source can only be used with layer type 'hillshade'.", value: sourceName, path: sourcePath)])
        }
        return (source, [])
    }

    /// A layer's `layout` or `paint`: each member by the property of that name of the layer's type.
    private mutating func validateProperties(_ options: Options, group: String, layer: JSONObject, layerType: JSONValue?) -> [StyleDiagnostic] {
        var object = options
        object.valueSpec = JSONObject()
        return validateObject(object, elementValidators: [
            "*": { validator, member in validator.validateProperty(member, group: group, layer: layer, layerType: layerType) },
        ])
    }

    /// One layout or paint property (or a paint property's transition).
    mutating func validateProperty(_ options: Options, group: String, layer: JSONObject, layerType: JSONValue?) -> [StyleDiagnostic] {
        let typeName = layerType.map { StyleValidator.javaScriptString($0) } ?? "undefined"
        guard let properties = section("\(group)_\(typeName)") else { return [] }
        let name = options.objectKey ?? ""
        if isCurrent, let base = Self.suffixed(name, "-use-theme"), properties[base] != nil {
            return validateUseTheme(options, group: group)
        }
        if group == "paint", name.hasSuffix("-transition"), properties[String(name.dropLast("-transition".count))]?["transition"] == .bool(true) {
            var transition = options
            transition.valueSpec = section("transition")
            return validate(transition)
        }
        guard let propertySpec = properties[name]?.objectValue else {
            return [warning(options.key, "unknown property \"\(name)\"", value: options.value, path: options.path)]
        }
        if case .string(let text)? = options.value, propertySpec["property-type"] == .string("data-driven"), propertySpec["tokens"] == nil,
           let token = Self.interpolationToken(text) {
            return [error(options, "\"\(name)\" does not support interpolation syntax\nUse an identity property function instead: `{ \"type\": \"identity\", \"property\": \(JSONWriter.string(.string(token))) }`.")]
        }
        var errors: [StyleDiagnostic] = []
        if StyleValidator.strictlyEqual(layerType, .string("symbol")) {
            if name == "text-field", let style = options.style, !StyleValidator.isPresent(style["glyphs"]), !StyleValidator.isPresent(style["imports"]) {
                errors.append(error(options, "use of \"text-field\" requires a style \"glyphs\" property"))
            }
            if name == "text-font", case .object(let function)? = options.value, function["type"] == .string("identity") {
                errors.append(error(options, "\"text-font\" does not support identity functions"))
            }
        } else if StyleValidator.strictlyEqual(layerType, .string("model")), group == "paint", layer["layout"]?.objectValue?["model-id"] != nil,
                  propertySpec["property-type"] == .string("data-driven"), let parameters = propertySpec["expression"]?["parameters"]?.arrayValue,
                  parameters.contains(.string("measure-light")) || parameters.contains(.string("zoom")), let value = options.value,
                  case .success(let compiled) = StyleExpressionCompiler.compileProperty(value, spec: propertySpec, flavor: flavor),
                  compiled.expression.uses(anyOf: ["measure-light"]),
                  !(isCurrent && name == "model-emissive-strength" && compiled.expression.isFeatureConstant && compiled.expression.isStateConstant) {
            errors.append(error(options, "\(name) does not support measure-light expressions when the model layer source is vector tile or GeoJSON."))
        }
        var property = options
        property.valueSpec = propertySpec
        property.expressionContext = .property
        property.propertyType = group
        property.propertyKey = name
        return errors + validate(property)
    }

    /// A color property's `-use-theme` companion: a string, or an expression of zoom and feature
    /// data that gives one.
    private mutating func validateUseTheme(_ options: Options, group: String) -> [StyleDiagnostic] {
        guard isExpression(options.value) else { return validatePrimitive(options, "string") }
        var property = options
        property.valueSpec = JSONObject([
            ("type", .string("string")),
            ("expression", .object(JSONObject([("interpolated", .bool(false)), ("parameters", .array([.string("zoom"), .string("feature")]))]))),
            ("property-type", .string("data-driven")),
        ])
        property.expressionContext = .property
        property.propertyType = group
        property.propertyKey = options.objectKey
        return validate(property)
    }

    /// The `NAME` of a string that is exactly `{NAME}`, the legacy token syntax.
    static func interpolationToken(_ text: String) -> String? {
        guard text.count > 2, text.first == "{", text.last == "}" else { return nil }
        let inner = text.dropFirst().dropLast()
        return inner.contains("}") ? nil : String(inner)
    }

    // MARK: - Filters

    /// A layer's filter: an expression filter against the filter entry of the layer's type (`fill`
    /// when it has none), else a legacy filter.
    mutating func validateFilter(_ options: Options) -> [StyleDiagnostic] {
        guard let value = options.value, StyleFilter.isExpressionFilter(value) else { return validateLegacyFilter(options) }
        var expression = options
        expression.expressionContext = .filter
        let typeName = options.layerType.map { StyleValidator.javaScriptString($0) } ?? "fill"
        expression.valueSpec = section("filter_\(typeName)")
        return validateExpression(expression)
    }

    private func validateLegacyFilter(_ options: Options) -> [StyleDiagnostic] {
        guard case .array(let parts)? = options.value else {
            return [error(options, "array expected, \(Self.typeName(options.value)) found")]
        }
        guard let first = parts.first else { return [error(options, "filter array must have at least 1 element")] }
        let key = options.key
        let path = options.path
        func element(_ index: Int) -> Options {
            options.child(key: "\(key)[\(index)]", value: index < parts.count ? parts[index] : nil, path: path.map { "\($0)[\(index)]" }, valueSpec: nil)
        }
        var errors = validateEnum(withSpec: section("filter_operator"), element(0))
        let op = StyleValidator.javaScriptString(first)
        func checkOperands() {
            if parts.count >= 2 {
                let found = parts[1].typeName
                if found != "string" { errors.append(error(element(1), "string expected, \(found) found")) }
            }
            for index in parts.indices.dropFirst(2) {
                if StyleValidator.strictlyEqual(parts[1], .string("$type")) {
                    errors += validateEnum(withSpec: section("geometry_type"), element(index))
                } else if !["string", "number", "boolean"].contains(parts[index].typeName) {
                    errors.append(error(element(index), "string, number, or boolean expected, \(parts[index].typeName) found\(isCurrent ? "." : "")"))
                }
            }
        }
        guard case .string = first else { return errors }
        switch op {
        case "<", "<=", ">", ">=", "==", "!=":
            if ["<", "<=", ">", ">="].contains(op), parts.count >= 2, StyleValidator.strictlyEqual(parts[1], .string("$type")) {
                errors.append(error(options, "\"$type\" cannot be use with operator \"\(op)\""))
            }
            if parts.count != 3 { errors.append(error(options, "filter array for operator \"\(op)\" must have 3 elements")) }
            checkOperands()
        case "in", "!in":
            checkOperands()
        case "any", "all", "none":
            for index in parts.indices.dropFirst() { errors += validateLegacyFilter(element(index)) }
        case "has", "!has":
            if parts.count != 2 {
                errors.append(error(options, "filter array for \"\(op)\" operator must have 2 elements"))
            } else if parts[1].typeName != "string" {
                errors.append(error(element(1), "string expected, \(parts[1].typeName) found"))
            }
        default:
            break
        }
        return errors
    }

    private func validateEnum(withSpec valueSpec: JSONObject?, _ options: Options) -> [StyleDiagnostic] {
        var options = options
        options.valueSpec = valueSpec
        return validateEnum(options)
    }

    // MARK: - Expressions

    /// An expression, compiled as the reference compiles it for its place, then that place's rules.
    mutating func validateExpression(_ options: Options) -> [StyleDiagnostic] {
        guard let value = options.value else { return [error(options.key, "'undefined' value invalid. Use null instead.", value: nil, path: nil)] }
        let expression: ParsedExpression
        let result: Result<ParsedExpression, ExpressionCompilationError>
        if options.expressionContext == .property, let propertySpec = options.valueSpec {
            let flavor = self.flavor
            if let propertyType = options.propertyType, let propertyKey = options.propertyKey {
                // A property's spec is the same in every layer that has it.
                result = compiled.result(for: propertyType, propertyKey, value) {
                    StyleExpressionCompiler.compileProperty(value, spec: propertySpec, flavor: flavor).map(\.expression)
                }
            } else {
                result = StyleExpressionCompiler.compileProperty(value, spec: propertySpec, flavor: flavor).map(\.expression)
            }
        } else if options.valueSpec == nil {
            let flavor = self.flavor
            result = compiled.result(for: options.expressionContext?.rawValue ?? "nil", "", value) { StyleExpressionCompiler.compile(value, spec: nil, flavor: flavor) }
        } else {
            result = StyleExpressionCompiler.compile(value, spec: options.valueSpec, flavor: flavor)
        }
        switch result {
        case .failure(let failure):
            return failure.errors.map { error("\(options.key)\($0.key)", $0.message, value: value, path: options.path) }
        case .success(let parsed):
            expression = parsed
        }
        switch options.expressionContext {
        case .property?:
            if options.propertyKey == "text-font" && !expression.isOutputDefined {
                return [error(options, "Invalid data expression for \"text-font\". Output values must be contained as literals within the expression.")]
            }
            if options.propertyType == "layout" && !expression.isStateConstant {
                return [error(options, "\"feature-state\" data expressions are not supported with layout properties.")]
            }
        case .filter?:
            var disallowed: Set<String> = ["zoom", "feature-state", "pitch", "distance-from-center"]
            for parameter in options.valueSpec?["expression"]?["parameters"]?.arrayValue ?? [] {
                if case .string(let name) = parameter { disallowed.remove(name) }
            }
            return disallowed.isEmpty ? [] : disallowedFilterParameters(expression, disallowed, options)
        case .clusterMap?, .clusterReduce?:
            if expression.uses(anyOf: ["zoom", "feature-state"]) {
                return [error(options, "\"zoom\" and \"feature-state\" expressions are not supported with cluster properties.")]
            }
        case nil:
            break
        }
        return []
    }

    /// Each use in a filter of an operator its layer type's filters do not take (the first one
    /// down each branch).
    private func disallowedFilterParameters(_ expression: ParsedExpression, _ disallowed: Set<String>, _ options: Options) -> [StyleDiagnostic] {
        if let name = expression.compoundName, disallowed.contains(name) {
            let type = StyleValidator.javaScriptString(options.object?["type"])
            let id = StyleValidator.javaScriptString(options.object?["id"])
            return [error(options, "[\"\(name)\"] expression is not supported in a filter for a \(type) layer with id: \(id)")]
        }
        return expression.children.flatMap { disallowedFilterParameters($0, disallowed, options) }
    }
}
