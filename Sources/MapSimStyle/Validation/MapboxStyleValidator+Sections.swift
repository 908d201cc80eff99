import Foundation
import MapSimJSON

/// Sources, imports, models, and the root's light, lights, terrain, fog and projection, as
/// Mapbox's validator checks them.
extension MapboxStyleValidator {
    // MARK: - Sources

    /// A source by its type; a type Mapbox knows but has no rules for (`model`, `batched-model`)
    /// is only checked to be one of the types.
    mutating func validateSource(_ options: Options) -> [StyleDiagnostic] {
        let source = options.value?.objectValue ?? JSONObject()
        guard let type = source["type"], type != .null else { return [error(options, "\"type\" is required")] }
        let name = StyleValidator.javaScriptString(type)
        var object = options
        switch name {
        case "vector", "raster", "raster-dem":
            object.valueSpec = section("source_\(name.replacingOccurrences(of: "-", with: "_"))")
            return validateObject(object, elementValidators: ["promoteId": { $0.validatePromoteId($1) }])
        case "geojson":
            object.valueSpec = section("source_geojson")
            var errors = validateObject(object, elementValidators: ["promoteId": { $0.validatePromoteId($1) }])
            if StyleValidator.isPresent(source["cluster"]) { errors += validateClusterProperties(source, options: options) }
            return errors
        case "video", "image":
            object.valueSpec = section("source_\(name)")
            return validateObject(object)
        case "canvas":
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

    /// `promoteId`: a string, or each member a string (a number's or a boolean's only member is
    /// the `__line__` its reader gave it, a number without a line).
    private func validatePromoteId(_ options: Options) -> [StyleDiagnostic] {
        switch options.value {
        case .string?:
            return []
        case .number?, .bool?:
            return [error("\(options.key).__line__", "string expected, number found", value: nil, path: nil)]
        case .object(let members)?:
            return Self.javaScriptOrder(members).compactMap { key, member in
                member.typeName == "string" ? nil
                    : error("\(options.key).\(key)", "string expected, \(member.typeName) found", value: member, path: options.path.map { StyleValidator.join($0, key) })
            }
        case .array(let elements)?:
            return elements.enumerated().compactMap { index, element in
                element.typeName == "string" ? nil
                    : error("\(options.key).\(index)", "string expected, \(element.typeName) found", value: element, path: options.path.map { "\($0)[\(index)]" })
            }
        default:
            return []
        }
    }

    /// The map and reduce expressions of a clustered source's `clusterProperties`: `[operator, map]`,
    /// an operator string expanded (only a string's characters are strings to the reference).
    private mutating func validateClusterProperties(_ source: JSONObject, options: Options) -> [StyleDiagnostic] {
        let definitions: [(key: String, value: JSONValue)]
        switch source["clusterProperties"] {
        case .object(let members)?: definitions = Self.javaScriptOrder(members)
        case .array(let elements)?: definitions = elements.enumerated().map { (String($0.offset), $0.element) }
        default: return []
        }
        var errors: [StyleDiagnostic] = []
        for (name, definition) in definitions {
            let definitionPath = options.path.map { StyleValidator.join($0, "clusterProperties.\(name)") }
            var parts: [(value: JSONValue, path: String?)]
            switch definition {
            case .array(let elements): parts = elements.enumerated().map { index, element in (element, definitionPath.map { "\($0)[\(index)]" }) }
            case .string(let text): parts = text.unicodeScalars.prefix(2).map { (JSONValue.string(String($0)), nil) }
            default: continue
            }
            var map = options.child(key: "\(options.key).\(name).map", value: parts.count > 1 ? parts[1].value : nil, path: parts.count > 1 ? parts[1].path : nil,
                                    valueSpec: nil)
            map.expressionContext = .clusterMap
            errors += validateExpression(map)
            let reduceValue: JSONValue?
            var reducePath: String?
            if case .string = definition, let op = parts.first?.value {
                reduceValue = .array([op, .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
            } else {
                reduceValue = parts.first?.value
                reducePath = parts.first?.path
            }
            var reduce = options.child(key: "\(options.key).\(name).reduce", value: reduceValue, path: reducePath, valueSpec: nil)
            reduce.expressionContext = .clusterReduce
            errors += validateExpression(reduce)
        }
        return errors
    }

    /// A model's URL: a string that parses as a URL, alone or against a base.
    func validateModelURL(_ options: Options) -> [StyleDiagnostic] {
        guard let value = options.value, value != .null else { return [] }
        guard case .string(let url) = value else { return [error(options, "string expected, \"\(value.typeName)\" found")] }
        return Self.isURL(url) ? [] : [error(options, "invalid url \"\(url)\"")]
    }

    /// Whether `new URL(text, base)` parses, the base `http://example.com` for text without `://`:
    /// nearly anything then; else a valid scheme, and a host for the special schemes.
    private static func isURL(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.contains("://") else { return trimmed != "//" }
        guard let colon = trimmed.firstIndex(of: ":") else { return false }
        let scheme = trimmed[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }) else { return false }
        if ["http", "https", "ws", "wss", "ftp"].contains(scheme) {
            let rest = trimmed[trimmed.index(after: colon)...].drop { $0 == "/" || $0 == "\\" }
            return !(rest.prefix { !"/?#\\".contains($0) }.isEmpty)
        }
        return true
    }

    // MARK: - Import

    /// An import: its members but `data` against the import entry, a non-empty id, then its
    /// `data` as a whole style of its own.
    mutating func validateImport(_ options: Options) -> [StyleDiagnostic] {
        if isCurrent, options.value?.objectValue == nil { return [error(options, "import must be an object")] }
        switch options.value {
        case .string?, .array?, .number?, .bool?: return validateSpreadImport(options)
        default: break
        }
        var members = options.value?.objectValue ?? JSONObject()
        let data = members["data"]
        members["data"] = nil
        var object = options
        object.value = options.value?.objectValue != nil ? .object(members) : options.value
        object.valueSpec = section("import")
        var errors = validateObject(object)
        if StyleValidator.strictlyEqual(members["id"], .string("")) {
            errors.append(error("\(options.key).id", "import id can't be an empty string", value: object.value, path: options.path))
        }
        if let data, data != .null {
            errors += validateStyle(data, key: "\(options.key).data", path: options.path.map { StyleValidator.join($0, "data") } ?? "")
        }
        return errors
    }

    /// An import that is no object, as the reference's `{data, ...rest} = value` spreads it: each
    /// character of a string (with no line) or element of an array is an unknown property, a
    /// number or boolean has none; then the required members, all missing, at the value's line.
    private func validateSpreadImport(_ options: Options) -> [StyleDiagnostic] {
        var spread: [(value: JSONValue, path: String?)] = []
        switch options.value {
        case .string(let text)?:
            spread = text.utf16.map { (.string(String(decoding: [$0], as: UTF16.self)), nil) }
        case .array(let elements)?:
            spread = elements.enumerated().map { index, element in (element, options.path.map { "\($0)[\(index)]" }) }
        default:
            break
        }
        var errors = spread.enumerated().map { index, member in
            warning(options.key, "unknown property \"\(index)\"", value: member.value, path: member.path)
        }
        for (key, entry) in (section("import") ?? JSONObject()).members where entry["required"] == .bool(true) && entry["default"] == nil {
            errors.append(error(options, "missing required property \"\(key)\""))
        }
        return errors
    }

    // MARK: - Light, lights, terrain, fog, projection

    /// The legacy `light`: members by bare name, unknown ones refused.
    mutating func validateLight(_ options: Options) -> [StyleDiagnostic] {
        validateDetached(options, name: "light")
    }

    /// `terrain`: members by bare name, then its source, which must be a raster-dem source.
    mutating func validateTerrain(_ options: Options) -> [StyleDiagnostic] {
        if isCurrent, options.value == nil || options.value == .null { return [] }
        guard let terrain = options.value?.objectValue else { return validateDetached(options, name: "terrain") }
        if isCurrent { return validateDetached(options, name: "terrain") + checkCurrentTerrainSource(terrain, options: options) }
        var errors = validateDetached(options, name: "terrain")
        let sourcePath = options.path.map { StyleValidator.join($0, "source") }
        if let sourceName = terrain["source"], sourceName != .null {
            let source = StyleValidator.member(of: options.style.map(JSONValue.object)?["sources"], named: sourceName)
            if let source, source != .null {
                let type = source.objectValue?["type"]
                if !StyleValidator.strictlyEqual(type, .string("raster-dem")) {
                    let shown = type.map { StyleValidator.javaScriptString($0) } ?? "undefined"
                    errors.append(error(options.key, "terrain cannot be used with a source of type \(shown), it only be used with a \"raster-dem\" source type",
                                        value: sourceName, path: sourcePath))
                }
            } else {
                errors.append(error(options.key, "source \"\(StyleValidator.javaScriptString(sourceName))\" not found", value: sourceName, path: sourcePath))
            }
        } else {
            errors.append(error(options, "terrain is missing required property \"source\""))
        }
        return errors
    }

    mutating func validateFog(_ options: Options) -> [StyleDiagnostic] {
        validateDetached(options, name: "fog")
    }

    /// An object of the root checked against its own section, its members' messages keyed by
    /// their bare names; `-transition` members of transitionable properties as transitions.
    private mutating func validateDetached(_ options: Options, name: String) -> [StyleDiagnostic] {
        guard let value = options.value else { return [] }
        guard case .object(let object) = value else {
            return [error(name, "object expected, \(value.typeName) found", value: value, path: options.path)]
        }
        let properties = section(name) ?? JSONObject()
        var errors: [StyleDiagnostic] = []
        for (key, member) in Self.javaScriptOrder(object) {
            let path = options.path.map { StyleValidator.join($0, key) }
            errors += validateMember(key, member, path: path, of: properties, options: options, unknownIsError: name == "light")
        }
        return errors
    }

    /// One member checked against `properties`, as a transition when it is one; an unknown one
    /// reported by its bare name.
    private mutating func validateMember(_ key: String, _ member: JSONValue, path: String?, of properties: JSONObject, options: Options,
                                         unknownIsError: Bool = false) -> [StyleDiagnostic] {
        if isCurrent, let base = Self.suffixed(key, "-use-theme"), properties[base] != nil {
            return validatePrimitive(options.child(key: key, value: member, path: path, valueSpec: nil), "string")
        }
        if key.hasSuffix("-transition"), properties[String(key.dropLast("-transition".count))]?["transition"] == .bool(true) {
            return validate(options.child(key: key, value: member, path: path, valueSpec: section("transition")))
        }
        if let entry = properties[key]?.objectValue {
            return validate(options.child(key: key, value: member, path: path, valueSpec: entry))
        }
        // Mapbox warns of an unknown member of its sections, but of the legacy `light`'s it errs.
        let message = "unknown property \"\(key)\""
        return [unknownIsError ? error(key, message, value: member, path: path) : warning(key, message, value: member, path: path)]
    }

    /// One of `lights`: its type and id first, one light of each type, then its members and its
    /// `properties` against the section of its type.
    mutating func validateLight3D(_ options: Options) -> [StyleDiagnostic] {
        guard let value = options.value, value != .null else { return [] }
        guard case .object(let light) = value else {
            return [error("light-3d", "object expected, \(value.typeName) found", value: value, path: options.path)]
        }
        let lightSpec = section("light-3d") ?? JSONObject()
        for name in ["type", "id"] where light[name] == nil {
            return [error("light-3d", "missing property \(name) on light", value: value, path: options.path)]
        }
        var errors: [StyleDiagnostic] = []
        let lights = options.style?["lights"]?.arrayValue ?? []
        if StyleValidator.isPresent(light["type"]), !lights.isEmpty {
            for index in 0..<min(options.arrayIndex ?? 0, lights.count) where StyleValidator.strictlyEqual(lights[index].objectValue?["type"], light["type"]) {
                let previous = lines.line(StyleValidator.join(options.stylePath, "lights[\(index)].id")).map(String.init) ?? "undefined"
                errors.append(error(options.key, "duplicate light type \"\(StyleValidator.javaScriptString(light["type"]))\", previously defined at line \(previous)",
                                    value: light["id"], path: options.path.map { StyleValidator.join($0, "id") }))
            }
        }
        guard let properties = section("properties_light_\(StyleValidator.javaScriptString(light["type"]))") else {
            return errors + [error("light-3d", "Invalid light type \(StyleValidator.javaScriptString(light["type"]))", value: value, path: options.path)]
        }
        for (key, member) in Self.javaScriptOrder(light) {
            let path = options.path.map { StyleValidator.join($0, key) }
            if key == "properties" {
                guard case .object(let values) = member else {
                    return errors + [error("properties", "object expected, \(member.typeName) found", value: member, path: path)]
                }
                for (name, property) in Self.javaScriptOrder(values) {
                    let propertyPath = path.map { StyleValidator.join($0, name) }
                    if let entry = properties[name]?.objectValue {
                        errors += validate(options.child(key: name, value: property, path: propertyPath, valueSpec: entry))
                    } else {
                        errors.append(warning(options.key, "unknown property \"\(name)\"", value: property, path: propertyPath))
                    }
                }
            } else {
                errors += validateMember(key, member, path: path, of: lightSpec, options: options)
            }
        }
        return errors
    }

    /// `projection`: a name, or an object whose members are checked by their bare names.
    mutating func validateProjection(_ options: Options) -> [StyleDiagnostic] {
        switch options.value {
        case .object(let object)?:
            let projection = section("projection") ?? JSONObject()
            return Self.javaScriptOrder(object).flatMap { key, member -> [StyleDiagnostic] in
                // The reference has no entry for an unknown member and fails on it; nothing is reported here.
                guard let entry = projection[key]?.objectValue else { return [] }
                return validate(options.child(key: key, value: member, path: options.path.map { StyleValidator.join($0, key) }, valueSpec: entry))
            }
        case .string?:
            return []
        default:
            return [error("projection", "object or string expected, \(Self.typeName(options.value)) found", value: options.value, path: options.path)]
        }
    }
}
