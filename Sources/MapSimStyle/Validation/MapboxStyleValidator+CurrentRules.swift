import MapSimJSON

/// What Mapbox's current validator (`--engine mapbox`) checks otherwise than Mapbox GL JS 3.0.1's:
/// sources (`raster-array`, a `url` or `tiles`, cluster properties, `promoteId` expressions), the
/// `lights`, `terrain` and `iconsets` of the root, a layer's `appearances`, and the `-use-theme`
/// companion of color properties.
extension MapboxStyleValidator {
    // MARK: - Sources

    /// A source: an object with a `type`; a tiled one (`vector`, `raster`, `raster-dem`,
    /// `raster-array`) warned of without `url` or `tiles`.
    mutating func validateCurrentSource(_ options: Options) -> [StyleDiagnostic] {
        guard case .object(let source)? = options.value else {
            return [error(options, "object expected, \(Self.typeName(options.value)) found")]
        }
        guard let type = source["type"] else { return [error(options, "\"type\" is required")] }
        let name = type.stringValue
        var errors: [StyleDiagnostic] = []
        var object = options
        switch name {
        case "vector"?, "raster"?, "raster-dem"?, "raster-array"?:
            if source["url"] == nil && source["tiles"] == nil {
                errors.append(error(options, "Either \"url\" or \"tiles\" is required."))
            }
            object.valueSpec = section("source_\(name!.replacingOccurrences(of: "-", with: "_"))")
            return errors + validateObject(object, elementValidators: ["promoteId": { $0.validateCurrentPromoteId($1) }])
        case "geojson"?:
            object.valueSpec = section("source_geojson")
            errors = validateObject(object, elementValidators: ["promoteId": { $0.validateCurrentPromoteId($1) }])
            if source["cluster"] != nil, let properties = source["clusterProperties"] {
                return validateCurrentClusterProperties(properties, errors: errors, options: options)
            }
            return errors
        case "video"?, "image"?:
            object.valueSpec = section("source_\(name!)")
            return validateObject(object)
        case "canvas"?:
            return [error(options.key, "Please use runtime APIs to add canvas sources, rather than including them in stylesheets.", value: nil, path: nil,
                          identifier: "source.canvas")]
        default:
            let types = (spec["source"]?.arrayValue ?? []).compactMap(\.stringValue).flatMap { sectionName -> [String] in
                guard let typeSpec = section(sectionName)?["type"]?.objectValue, typeSpec["type"] == .string("enum") else { return [] }
                return typeSpec["values"]?.objectValue?.keys ?? []
            }
            return validateEnum(options.child(key: "\(options.key).type", value: type, path: options.path.map { StyleValidator.join($0, "type") },
                                              valueSpec: JSONObject([("values", .array(types.map(JSONValue.string)))])))
        }
    }

    /// The map and reduce expressions of a clustered source's `clusterProperties`: an object of
    /// `[operator, map]` arrays (an operator string reads as itself, a literal), or else only the
    /// error of the first member that is no array, or of the whole.
    private mutating func validateCurrentClusterProperties(_ properties: JSONValue, errors sourceErrors: [StyleDiagnostic],
                                                           options: Options) -> [StyleDiagnostic] {
        let propertiesPath = options.path.map { StyleValidator.join($0, "clusterProperties") }
        guard case .object(let members) = properties else {
            return [error("\(options.key).clusterProperties", "object expected, object found", value: options.value, path: options.path)]
        }
        var errors = sourceErrors
        for (name, definition) in Self.javaScriptOrder(members) {
            let definitionPath = propertiesPath.map { StyleValidator.join($0, name) }
            guard case .array(let parts) = definition else {
                return [error("\(options.key).clusterProperties.\(name)", "array expected", value: definition, path: definitionPath)]
            }
            func part(_ index: Int) -> (JSONValue?, String?) {
                index < parts.count ? (parts[index], definitionPath.map { "\($0)[\(index)]" }) : (nil, nil)
            }
            let (mapValue, mapPath) = part(1)
            var map = options.child(key: "\(options.key).\(name).map", value: mapValue, path: mapPath, valueSpec: nil)
            map.expressionContext = .clusterMap
            errors += validateExpression(map)
            let (reduceValue, reducePath) = part(0)
            var reduce = options.child(key: "\(options.key).\(name).reduce", value: reduceValue, path: reducePath, valueSpec: nil)
            reduce.expressionContext = .clusterReduce
            errors += validateExpression(reduce)
        }
        return errors
    }

    /// `promoteId`: a string; an expression of feature data only; or an object of these by source
    /// layer. An expression's errors have no line.
    mutating func validateCurrentPromoteId(_ options: Options) -> [StyleDiagnostic] {
        switch options.value {
        case .string?:
            return []
        case .array(let elements)?:
            switch StyleExpressionCompiler.compile(.array(elements), spec: nil, flavor: flavor) {
            case .failure(let failure):
                return failure.errors.map { error("\(options.key)\($0.key)", $0.message, value: nil, path: nil) }
            case .success(let parsed):
                let global: Set<String> = ["zoom", "heatmap-density", "line-progress", "raster-value", "sky-radial-progress", "accumulated",
                                           "is-supported-script", "pitch", "distance-from-center", "measure-light", "raster-particle-speed"]
                return parsed.uses(anyOf: global)
                    ? [error(options.key, "promoteId expression should be only feature dependent", value: nil, path: nil)] : []
            }
        case .object(let members)?:
            return Self.javaScriptOrder(members).flatMap { key, member in
                validateCurrentPromoteId(options.child(key: "\(options.key).\(key)", value: member, path: options.path.map { StyleValidator.join($0, key) },
                                                       valueSpec: nil))
            }
        default:
            return [error(options, "string, expression or object expected, \"\(Self.typeName(options.value))\" found")]
        }
    }

    // MARK: - Lights and terrain

    /// One of `lights`: an object with a `type` (a string naming a kind of light) and an `id`, one
    /// light of each type, then its members by bare name and its `properties` against the section
    /// of its type.
    mutating func validateCurrentLight3D(_ options: Options) -> [StyleDiagnostic] {
        guard let value = options.value, value != .null else { return [] }
        guard case .object(let light) = value else { return [error(options, "object expected, \(value.typeName) found")] }
        for name in ["type", "id"] where light[name] == nil {
            return [error(options, "missing property \"\(name)\"")]
        }
        let typePath = options.path.map { StyleValidator.join($0, "type") }
        guard case .string(let type)? = light["type"] else {
            return [error("\(options.key).type", "string expected", value: light["type"], path: typePath)]
        }
        var errors: [StyleDiagnostic] = []
        let lights = options.style?["lights"]?.arrayValue ?? []
        for index in 0..<min(options.arrayIndex ?? 0, lights.count) where StyleValidator.strictlyEqual(lights[index].objectValue?["type"], .string(type)) {
            let previous = lines.line(StyleValidator.join(options.stylePath, "lights[\(index)].id")).map(String.init) ?? "undefined"
            errors.append(error(options.key, "duplicate light type \"\(type)\", previously defined at line \(previous)", value: light["id"],
                                path: options.path.map { StyleValidator.join($0, "id") }))
        }
        guard let properties = section("properties_light_\(type)") else {
            return errors + [error("\(options.key).type", "Invalid light type \(type)", value: value, path: options.path)]
        }
        let lightSpec = section("light-3d") ?? JSONObject()
        for (key, member) in Self.javaScriptOrder(light) {
            let path = options.path.map { StyleValidator.join($0, key) }
            guard key == "properties" else {
                if let entry = lightSpec[key]?.objectValue {
                    errors += validate(options.child(key: key, value: member, path: path, valueSpec: entry))
                } else {
                    errors.append(warning(key, "unknown property \"\(key)\"", value: member, path: path))
                }
                continue
            }
            guard case .object(let values) = member else {
                return errors + [error("properties", "object expected, \(member.typeName) found", value: member, path: path)]
            }
            for (name, property) in Self.javaScriptOrder(values) {
                let propertyPath = path.map { StyleValidator.join($0, name) }
                if let base = Self.suffixed(name, "-use-theme"), properties[base] != nil {
                    errors += validatePrimitive(options.child(key: "properties", value: property, path: propertyPath, valueSpec: nil), "string")
                } else if let base = Self.suffixed(name, "-transition"), properties[base]?["transition"] == .bool(true) {
                    // The reference checks the whole `properties` object as the transition.
                    errors += validate(options.child(key: "properties", value: member, path: path, valueSpec: section("transition")))
                } else if let entry = properties[name]?.objectValue {
                    errors += validate(options.child(key: name, value: property, path: propertyPath, valueSpec: entry))
                } else {
                    errors.append(warning(options.key, "unknown property \"\(name)\"", value: property, path: propertyPath))
                }
            }
        }
        return errors
    }

    /// `terrain`'s source: a string naming a `raster-dem` source of the style.
    func checkCurrentTerrainSource(_ terrain: JSONObject, options: Options) -> [StyleDiagnostic] {
        let sourcePath = options.path.map { StyleValidator.join($0, "source") }
        guard let sourceName = terrain["source"], sourceName != .null else {
            return [error(options, "terrain is missing required property \"source\"")]
        }
        guard case .string(let name) = sourceName else {
            return [error("\(options.key).source", "source must be a string", value: sourceName, path: sourcePath)]
        }
        guard let source = StyleValidator.member(of: options.style.map(JSONValue.object)?["sources"], named: sourceName), source != .null else {
            return [error("\(options.key).source", "source \"\(name)\" not found", value: sourceName, path: sourcePath)]
        }
        let type = source.objectValue?["type"]
        guard StyleValidator.strictlyEqual(type, .string("raster-dem")) else {
            let shown = type.map { StyleValidator.javaScriptString($0) } ?? "undefined"
            return [error("\(options.key).source", "terrain cannot be used with a source of type \(shown), it only be used with a \"raster-dem\" source type",
                          value: sourceName, path: sourcePath)]
        }
        return []
    }

    /// `NAME` of `NAMEsuffix`, nil for a name without the suffix (or nothing before it).
    static func suffixed(_ name: String, _ suffix: String) -> String? {
        guard name.hasSuffix(suffix), name.count > suffix.count else { return nil }
        return String(name.dropLast(suffix.count))
    }

    // MARK: - Iconsets

    /// One of `iconsets`: a `sprite` iconset with a URL, or a `source` one naming a
    /// `raster-array` source of the style.
    mutating func validateIconset(_ options: Options) -> [StyleDiagnostic] {
        guard case .object(let iconset)? = options.value else { return [error(options, "object expected")] }
        guard let type = iconset["type"], type != .null else { return [error(options, "\"type\" is required")] }
        let typeName = StyleValidator.javaScriptString(type)
        var object = options
        object.valueSpec = section("iconset_\(typeName)")
        var errors = validateObject(object)
        if type == .string("source"), let sourceName = iconset["source"], sourceName != .null {
            let sourcePath = options.path.map { StyleValidator.join($0, "source") }
            if let source = StyleValidator.member(of: options.style.map(JSONValue.object)?["sources"], named: sourceName), source != .null {
                let sourceType = source.objectValue?["type"]
                if !StyleValidator.strictlyEqual(sourceType, .string("raster-array")) {
                    let shown = sourceType.map { StyleValidator.javaScriptString($0) } ?? "undefined"
                    errors.append(error(options.key, "iconset cannot be used with a source of type \(shown), it only be used with a \"raster-array\" source type",
                                        value: sourceName, path: sourcePath))
                }
            } else {
                errors.append(error(options.key, "source \"\(StyleValidator.javaScriptString(sourceName))\" not found", value: sourceName, path: sourcePath))
            }
        }
        return errors
    }

    // MARK: - Appearances

    /// A layer's `appearances`: an array of appearances, each checked against the layer's type,
    /// then each name used twice (a name has no line).
    mutating func validateAppearances(_ options: Options, layer: JSONObject, layerType: JSONValue?) -> [StyleDiagnostic] {
        var errors = validateArray(options) { validator, appearance in
            validator.validateAppearance(appearance, layer: layer, layerType: layerType)
        }
        guard case .array(let appearances)? = options.value else { return errors }
        var names = Set<String>()
        for appearance in appearances {
            guard case .string(let name)? = appearance.objectValue?["name"], !name.isEmpty else { continue }
            if !names.insert(name).inserted {
                errors.append(error(options.key, "Duplicated appearance name \"\(name)\" for layer \"\(StyleValidator.javaScriptString(layer["id"]))\"",
                                    value: nil, path: nil))
            }
        }
        return errors
    }

    /// One appearance: its members (a `condition` expression of the allowed inputs, `properties`
    /// of the layer's type), and a condition unless it is named `hidden`.
    private mutating func validateAppearance(_ options: Options, layer: JSONObject, layerType: JSONValue?) -> [StyleDiagnostic] {
        var object = options
        object.valueSpec = section("appearance")
        // The reference unboxes the appearance first: a string, number or boolean keeps no line.
        if case .string? = options.value { object.path = nil }
        if case .number? = options.value { object.path = nil }
        if case .bool? = options.value { object.path = nil }
        var errors = validateObject(object, elementValidators: [
            "condition": { validator, member in validator.validateAppearanceCondition(member) },
            "properties": { validator, member in validator.validateAppearanceProperties(member, layer: layer, layerType: layerType) },
        ])
        let appearance = options.value?.objectValue
        if !StyleValidator.strictlyEqual(appearance?["name"], .string("hidden")) && appearance?["condition"] == nil {
            errors.append(error(options.key, "Appearance with name different than \"hidden\" must have a condition", value: nil, path: nil))
        }
        return errors
    }

    /// An appearance's condition: an expression whose every compound operator is one of the
    /// condition's inputs.
    private mutating func validateAppearanceCondition(_ options: Options) -> [StyleDiagnostic] {
        let conditionSpec = section("appearance")?["condition"]?.objectValue
        guard let value = options.value else { return [] }
        switch StyleExpressionCompiler.compile(value, spec: conditionSpec, flavor: flavor) {
        case .failure(let failure):
            return failure.errors.map { error("\(options.key)\($0.key)", $0.message, value: value, path: options.path) }
        case .success(let parsed):
            let allowed = Set((conditionSpec?["expression"]?["parameters"]?.arrayValue ?? []).compactMap(\.stringValue))
            return allowed.isEmpty ? [] : disallowedParameters(parsed, allowed: allowed, options)
        }
    }

    /// Each compound operator (the first one down each branch) that is not an allowed input
    /// (`config`, `split` and `at-interpolated` are forms of their own, no compound operators).
    private func disallowedParameters(_ expression: ParsedExpression, allowed: Set<String>, _ options: Options) -> [StyleDiagnostic] {
        if let name = expression.compoundName, !allowed.contains(name), !ExpressionParser.currentMapboxForms.contains(name) {
            return [error(options, "[\"\(name)\"] is not an allowed parameter")]
        }
        return expression.children.flatMap { disallowedParameters($0, allowed: allowed, options) }
    }

    /// An appearance's properties: each a paint or layout property of the layer's type (an unknown
    /// one has no line), checked as in `paint` or `layout`.
    private mutating func validateAppearanceProperties(_ options: Options, layer: JSONObject, layerType: JSONValue?) -> [StyleDiagnostic] {
        let typeName = layerType.map { StyleValidator.javaScriptString($0) } ?? "undefined"
        let paint = section("paint_\(typeName)") ?? JSONObject()
        let layout = section("layout_\(typeName)") ?? JSONObject()
        let members: [(key: String, value: JSONValue)]
        switch options.value {
        case .object(let object)?: members = Self.javaScriptOrder(object)
        case .string(let text)?: members = text.utf16.indices.map { (String(text.utf16.distance(from: text.utf16.startIndex, to: $0)), JSONValue.null) }
        case .array(let elements)?: members = elements.enumerated().map { (String($0.offset), $0.element) }
        default: members = []
        }
        var errors: [StyleDiagnostic] = []
        for (name, value) in members {
            let group = paint[name] != nil ? "paint" : layout[name] != nil ? "layout" : nil
            guard let group else {
                errors.append(error(options.key, "unknown property \"\(name)\" for layer type \"\(typeName)\"", value: nil, path: nil))
                continue
            }
            var property = options.child(key: "\(options.key).\(name)", value: value, path: options.path.map { StyleValidator.join($0, name) }, valueSpec: nil)
            property.objectKey = name
            errors += validateProperty(property, group: group, layer: layer, layerType: layerType)
        }
        return errors
    }
}
