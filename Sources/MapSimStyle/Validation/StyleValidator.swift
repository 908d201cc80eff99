import MapSimJSON

/// Checks a style against the style spec v8 reference, with the messages, lines and order of
/// `gl-style-validate`: root properties, sources, layers (ids, refs, sources and source layers) and
/// the types, enums, ranges, colors and arrays of every property, legacy functions and legacy
/// filters, and expressions (see `StyleValidator+Expressions`).
public struct StyleValidator {
    private let reference: JSONObject
    var lines = DocumentLines(bytes: [])
    var diagnostics: [StyleDiagnostic] = []

    /// The parsed reference, shared by every validation.
    static let parsedReference: JSONObject = (try? JSONParser.parse(StyleSpecReference.json).objectValue) ?? JSONObject()

    private init() {
        reference = Self.parsedReference
    }

    /// Every problem of the style in `bytes`, in the order gl-style-validate reports them.
    public static func validate(_ bytes: [UInt8]) -> [StyleDiagnostic] {
        var validator = StyleValidator()
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
            validator.lines = DocumentLines(bytes: bytes)
        } catch {
            // Reported as gl-style-validate's JSON reader reports it, when that reader would refuse the text too.
            let syntaxError = JSONLintSyntaxError.describe(bytes) ?? (error.message, error.line)
            return [StyleDiagnostic(message: syntaxError.message, line: syntaxError.line)]
        }
        validator.validateRoot(document)
        return validator.diagnostics
    }

    // MARK: - Reporting

    mutating func report(_ path: String, _ message: String, value: JSONValue?, lineOf linePath: String? = nil) {
        let line: Int? = value == .null ? nil : lines.line(linePath ?? path)
        diagnostics.append(StyleDiagnostic(message: path.isEmpty ? message : "\(path): \(message)", line: line))
    }

    /// "`expected` expected, `type of value` found", at `value`.
    mutating func reportType(_ path: String, expected: String, found value: JSONValue) {
        report(path, "\(expected) expected, \(value.typeName) found", value: value)
    }

    /// How gl-style-validate shows a found value: strings quoted, others as their type or literal.
    private func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONWriter.formatNumber(n)
        default: value.typeName
        }
    }

    private func section(_ name: String) -> JSONObject? { reference[name]?.objectValue }

    /// The source types, in the spec's order: the `type` values of the sections `source` lists.
    private var sourceTypes: [String] {
        (reference["source"]?.arrayValue ?? []).compactMap(\.stringValue).flatMap { section($0)?["type"]?["values"]?.objectValue?.keys ?? [] }
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: - Root

    private mutating func validateRoot(_ document: JSONValue) {
        guard let root = document.objectValue else {
            reportType("", expected: "object", found: document)
            return
        }
        let spec = section("$root") ?? JSONObject()
        for (key, entry) in spec.members where entry["required"] == .bool(true) && root[key] == nil {
            report("", "missing required property \"\(key)\"", value: document)
        }
        for (key, value) in root.members {
            switch key {
            case "constants":
                report(key, "constants have been deprecated as of v8", value: value)
            case "sources":
                validateSources(value)
            case "layers":
                validateLayers(value, sources: root["sources"]?.objectValue)
            case "glyphs":
                validateGlyphs(value)
            case "light", "terrain", "sky", "projection":
                validateDetached(value, section: key)
            case "font-faces":
                if value.objectValue == nil { reportType(key, expected: "object", found: value) }
            default:
                // Unknown root keys are allowed, as in gl-style-validate.
                if let entry = spec[key]?.objectValue { validateValue(value, path: key, spec: entry) }
            }
        }
    }

    /// Light, terrain and sky report their members without the parent's path, as gl-style-validate does.
    private mutating func validateDetached(_ value: JSONValue, section name: String) {
        guard let object = value.objectValue else {
            reportType(name, expected: "object", found: value)
            return
        }
        let spec = section(name) ?? JSONObject()
        for (key, member) in object.members {
            let path = join(name, key)
            if let entry = spec[key]?.objectValue {
                let before = diagnostics.count
                validateValue(member, path: path, spec: entry)
                for index in before..<diagnostics.count where diagnostics[index].message.hasPrefix(name + ".") {
                    diagnostics[index].message.removeFirst(name.count + 1)
                }
            } else {
                diagnostics.append(StyleDiagnostic(message: "\(key): unknown property \"\(key)\"", line: member == .null ? nil : lines.line(path)))
            }
        }
    }

    private mutating func validateGlyphs(_ value: JSONValue) {
        guard case .string(let url) = value else {
            reportType("glyphs", expected: "string", found: value)
            return
        }
        for token in ["{fontstack}", "{range}"] where !url.contains(token) {
            report("glyphs", "\"glyphs\" url must include a \"\(token)\" token", value: value)
        }
    }

    // MARK: - Sources

    private mutating func validateSources(_ value: JSONValue) {
        guard let sources = value.objectValue else {
            reportType("sources", expected: "object", found: value)
            return
        }
        for (id, source) in sources.members {
            let path = "sources.\(id)"
            guard let object = source.objectValue else {
                reportType(path, expected: "object", found: source)
                continue
            }
            guard let type = object["type"] else {
                report(path, "\"type\" is required", value: source)
                continue
            }
            if type == .string("canvas") {
                diagnostics.append(StyleDiagnostic(message: "\(path): Please use runtime APIs to add canvas sources, rather than including them in stylesheets.",
                                                   line: nil, identifier: "source.canvas"))
                continue
            }
            let types = sourceTypes
            guard case .string(let name) = type, types.contains(name) else {
                report(join(path, "type"), "expected one of [\(types.joined(separator: ", "))], \(shown(type)) found", value: type)
                continue
            }
            validateObject(object, path: path, spec: section("source_" + name.replacingOccurrences(of: "-", with: "_")) ?? JSONObject(), whole: source)
            if name == "geojson" { validateClusterProperties(object, path: path) }
        }
    }

    // MARK: - Layers

    private mutating func validateLayers(_ value: JSONValue, sources: JSONObject?) {
        guard let layers = value.arrayValue else {
            reportType("layers", expected: "array", found: value)
            return
        }
        // The index of the first layer with each id; its line is looked up only for a duplicate.
        var seen: [String: Int] = [:]
        for (index, layer) in layers.enumerated() {
            let path = "layers[\(index)]"
            guard let object = layer.objectValue else {
                reportType(path, expected: "object", found: layer)
                continue
            }
            if let id = object["id"]?.stringValue {
                if let previous = seen[id] {
                    let previousLine = lines.line("layers[\(previous)].id") ?? 0
                    report(path, "duplicate layer id \"\(id)\", previously used at line \(previousLine)", value: layer, lineOf: join(path, "id"))
                } else {
                    seen[id] = index
                }
            }
            validateLayer(object, path: path, whole: layer, layers: layers, sources: sources)
        }
    }

    private mutating func validateLayer(_ layer: JSONObject, path: String, whole: JSONValue, layers: [JSONValue], sources: JSONObject?) {
        var type = layer["type"]?.stringValue
        if layer["type"] == nil && layer["ref"] == nil {
            report(path, "either \"type\" or \"ref\" is required", value: whole)
        }
        if let ref = layer["ref"] {
            for key in ["type", "source", "source-layer", "filter", "layout"] where layer[key] != nil {
                report(path, "\"\(key)\" is prohibited for ref layers", value: layer[key], lineOf: join(path, key))
            }
            let parent = layers.first { $0["id"] == ref }
            if let parent {
                if parent["ref"] != nil {
                    report(path, "ref cannot reference another ref layer", value: ref, lineOf: join(path, "ref"))
                } else {
                    type = parent["type"]?.stringValue
                }
            } else {
                report(path, "ref layer \(shown(ref)) not found", value: ref, lineOf: join(path, "ref"))
            }
        } else if let type, type != "background", type != "sky" {
            if layer["source"] == nil {
                report(path, "missing required property \"source\"", value: whole)
            } else if let source = layer["source"]?.stringValue {
                if let spec = sources?[source]?.objectValue {
                    checkSourceCompatibility(layer, type: type, source: spec, path: path, whole: whole)
                } else {
                    report(path, "source \"\(source)\" not found", value: layer["source"], lineOf: join(path, "source"))
                }
            }
        }
        let spec = section("layer") ?? JSONObject()
        for (key, value) in layer.members {
            let child = join(path, key)
            switch key {
            case "layout", "paint":
                validateProperties(value, path: child, section: type.map { "\(key)_\($0)" })
            case "filter":
                validateFilter(value, path: child)
            case "ref", "metadata":
                continue
            default:
                // Unknown layer keys are allowed, as in gl-style-validate.
                if let entry = spec[key]?.objectValue { validateValue(value, path: child, spec: entry) }
            }
        }
        if layer["id"] == nil { report(path, "missing required property \"id\"", value: whole) }
        if let paint = layer["paint"]?.objectValue, paint["resampling"] != nil, paint["raster-resampling"] != nil {
            report(path, "layer \"\(layer["id"]?.stringValue ?? "")\" redundantly specifies \"resampling\" and \"raster-resampling\" paint properties, but only one is allowed. It is advised to use \"resampling\".", value: layer["paint"], lineOf: join(path, "paint"))
        }
    }

    /// The layer-type and source-type rules of gl-style-validate, in its order, at the `source` line.
    private mutating func checkSourceCompatibility(_ layer: JSONObject, type: String, source: JSONObject, path: String, whole: JSONValue) {
        let id = layer["id"]?.stringValue ?? ""
        let sourceType = source["type"]?.stringValue
        let message: String?
        if sourceType == "vector" && type == "raster" {
            message = "layer \"\(id)\" requires a raster source"
        } else if sourceType != "raster-dem" && (type == "hillshade" || type == "color-relief") {
            message = "layer \"\(id)\" requires a raster-dem source"
        } else if sourceType == "raster" && type != "raster" {
            message = "layer \"\(id)\" requires a vector source"
        } else if sourceType == "vector" && layer["source-layer"] == nil {
            return report(path, "layer \"\(id)\" must specify a \"source-layer\"", value: whole)
        } else if sourceType == "raster-dem" && type != "hillshade" && type != "color-relief" {
            message = "raster-dem source can only be used with layer type 'hillshade' or 'color-relief'."
        } else if type == "line", layer["paint"]?["line-gradient"] != nil, sourceType != "geojson" || source["lineMetrics"] != .bool(true) {
            return report(path, "layer \"\(id)\" specifies a line-gradient, which requires a GeoJSON source with `lineMetrics` enabled.", value: whole)
        } else {
            message = nil
        }
        if let message { report(path, message, value: layer["source"], lineOf: join(path, "source")) }
    }

    private mutating func validateProperties(_ value: JSONValue, path: String, section name: String?) {
        guard let object = value.objectValue else {
            reportType(path, expected: "object", found: value)
            return
        }
        // A layer of unknown type has its type reported; its properties are not checked.
        guard let spec = name.flatMap({ section($0) }) else { return }
        let isLayout = path.hasSuffix(".layout")
        for (key, member) in object.members {
            let child = join(path, key)
            if let entry = spec[key]?.objectValue {
                if case .string(let text) = member, let token = Self.interpolationToken(text), Self.supportsDataExpressions(entry), entry["tokens"] == nil {
                    report(child, "\"\(key)\" does not support interpolation syntax\nUse an identity property function instead: `{ \"type\": \"identity\", \"property\": \(JSONWriter.string(.string(token))) }`.", value: member)
                    continue
                }
                if key == "text-font", name == "layout_symbol", member["type"] == .string("identity") {
                    report(child, "\"text-font\" does not support identity functions", value: member)
                }
                validateValue(member, path: child, spec: entry, context: .property(layout: isLayout, key: key))
            } else if key.hasSuffix("-transition"), spec[String(key.dropLast("-transition".count))]?["transition"] == .bool(true) {
                validateObject(member.objectValue ?? JSONObject(), path: child, spec: section("transition") ?? JSONObject(), whole: member)
            } else {
                report(child, "unknown property \"\(key)\"", value: member)
            }
        }
    }

    // MARK: - Values

    private mutating func validateObject(_ object: JSONObject, path: String, spec: JSONObject, whole: JSONValue) {
        guard whole.objectValue != nil else {
            reportType(path, expected: "object", found: whole)
            return
        }
        for (key, value) in object.members {
            let child = join(path, key)
            if let entry = spec[key]?.objectValue {
                validateValue(value, path: child, spec: entry)
            } else if spec["*"] == nil {
                report(path, "unknown property \"\(key)\"", value: value, lineOf: child)
            }
        }
        for (key, entry) in spec.members where entry["required"] == .bool(true) && object[key] == nil {
            report(path, "missing required property \"\(key)\"", value: whole)
        }
    }

    /// The `NAME` of a string that is exactly `{NAME}`, the legacy token syntax.
    private static func interpolationToken(_ text: String) -> String? {
        guard text.count > 2, text.first == "{", text.last == "}" else { return nil }
        let inner = text.dropFirst().dropLast()
        return inner.contains("}") ? nil : String(inner)
    }

    /// Whether a property accepts data (feature) expressions.
    static func supportsDataExpressions(_ spec: JSONObject) -> Bool {
        let type = spec["property-type"]?.stringValue
        return type == "data-driven" || type == "cross-faded-data-driven"
    }

    /// The `function` section of the reference.
    var functionSection: JSONObject { section("function") ?? JSONObject() }

    mutating func validateValue(_ value: JSONValue, path: String, spec: JSONObject, context: ExpressionContext = .plain) {
        if case .object(let object) = value, spec["expression"] != nil || spec["property-type"] != nil || spec["function"] != nil {
            return validateFunction(object, path: path, whole: value, propertySpec: spec)
        }
        if spec["expression"] != nil, Self.isExpression(value) {
            return validateExpression(value, path: path, spec: spec, context: context)
        }
        guard let type = spec["type"]?.stringValue else { return }
        switch type {
        case "filter":
            validateFilter(value, path: path)
        case "number":
            guard case .number(let n) = value else { return reportType(path, expected: "number", found: value) }
            if let minimum = spec["minimum"]?.numberValue, n < minimum {
                report(path, "\(JSONWriter.formatNumber(n)) is less than the minimum value \(JSONWriter.formatNumber(minimum))", value: value)
            }
            if let maximum = spec["maximum"]?.numberValue, n > maximum {
                report(path, "\(JSONWriter.formatNumber(n)) is greater than the maximum value \(JSONWriter.formatNumber(maximum))", value: value)
            }
        case "string", "formatted", "resolvedImage", "projectionDefinition":
            if case .string = value { return }
            if type != "string", case .array = value { return }
            reportType(path, expected: "string", found: value)
        case "boolean":
            if case .bool = value { return }
            reportType(path, expected: "boolean", found: value)
        case "enum":
            let values: [JSONValue] = spec["values"]?.objectValue?.keys.map(JSONValue.string) ?? spec["values"]?.arrayValue ?? []
            if values.contains(value) { return }
            let listed = values.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: ", ")
            report(path, "expected one of [\(listed)], \(JSONWriter.string(value)) found", value: value)
        case "color":
            guard case .string(let text) = value else { return reportType(path, expected: "color", found: value) }
            if !CSSColor.isColor(text) { report(path, "color expected, \(shown(value)) found", value: value) }
        case "array":
            validateArray(value, path: path, spec: spec)
        case "numberArray", "colorArray":
            // One value, or a non-empty array of them.
            let element = type == "numberArray" ? "number" : "color"
            var one = spec
            one["type"] = .string(element)
            guard case .array(let elements) = value else { return validateValue(value, path: path, spec: one) }
            guard !elements.isEmpty else { return report(path, "array length at least 1 expected, length 0 found", value: value) }
            for (index, item) in elements.enumerated() { validateValue(item, path: "\(path)[\(index)]", spec: one) }
        case "*":
            return
        default:
            if let sectionSpec = section(type) {
                if sectionSpec["type"] != nil, sectionSpec["values"] != nil {
                    validateValue(value, path: path, spec: sectionSpec)
                } else {
                    validateObject(value.objectValue ?? JSONObject(), path: path, spec: sectionSpec, whole: value)
                }
            }
        }
    }

    private mutating func validateArray(_ value: JSONValue, path: String, spec: JSONObject) {
        guard case .array(let elements) = value else { return reportType(path, expected: "array", found: value) }
        if let length = spec["length"]?.numberValue, elements.count != Int(length) {
            return report(path, "array length \(Int(length)) expected, length \(elements.count) found", value: value)
        }
        if let minimum = spec["minimum-length"]?.numberValue, elements.count < Int(minimum) {
            return report(path, "array length at least \(Int(minimum)) expected, length \(elements.count) found", value: value)
        }
        var elementSpec = JSONObject()
        if case .object(let object)? = spec["value"] {
            elementSpec = object
        } else if let name = spec["value"]?.stringValue {
            elementSpec = section(name) ?? JSONObject([("type", .string(name))])
            for key in ["minimum", "maximum", "values"] where spec[key] != nil { elementSpec[key] = spec[key] }
        }
        for (index, element) in elements.enumerated() {
            validateValue(element, path: "\(path)[\(index)]", spec: elementSpec)
        }
    }
}
