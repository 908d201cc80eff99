import MapSimJSON

/// Checks a style against Mapbox's style specification with the messages, lines and order of
/// Mapbox's `gl-style-validate` (the validator of `@mapbox/mapbox-gl-style-spec`): the reference's
/// one recursive walk, which picks a validator by the type each value has in the specification,
/// over Mapbox's table — the current one (`MapboxCurrentStyleSpecPatch` applied to MapLibre's) as
/// Mapbox's current validator checks it, or Mapbox GL JS 3.0.1's (`MapboxStyleSpecPatch`) as 3.0.1
/// runs it. `StyleValidator.validate(_:flavor:)` is the way in.
///
/// Where the walk surprises it is followed all the same: unknown properties are reported as
/// Mapbox reports them (warnings to it, but printed and counted as errors by its tool); an array
/// element that fails its type is checked again as an expression; light, lights, terrain and fog
/// members are reported by their bare names.
struct MapboxStyleValidator {
    /// Mapbox GL JS 3.0.1's table: MapLibre's reference with its patch applied.
    static let glJSReference: JSONObject = patched(MapboxStyleSpecPatch.json)

    /// Mapbox's current table: MapLibre's reference with the current patch applied.
    static let currentReference: JSONObject = patched(MapboxCurrentStyleSpecPatch.json)

    /// The table of `flavor`, one of Mapbox's.
    static func reference(_ flavor: StyleSpecFlavor) -> JSONObject {
        flavor == .mapboxGLJS ? glJSReference : currentReference
    }

    private static func patched(_ json: String) -> JSONObject {
        let maplibre = StyleSpecSections.readWhole()
        guard let patch = try? JSONParser.parse(json) else { return maplibre }
        return merged(.object(maplibre), patch).objectValue ?? maplibre
    }

    /// A JSON merge patch applied to `base`: a null removes a key, `{"$replace": value}` replaces
    /// a value whole, an object is merged member by member (new keys last).
    static func merged(_ base: JSONValue, _ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        if let replacement = changes["$replace"] { return replacement }
        guard case .object(var result) = base else { return patch }
        for (key, change) in changes.members {
            if change == .null {
                result[key] = nil
            } else {
                result[key] = result[key].map { merged($0, change) } ?? change
            }
        }
        return .object(result)
    }

    let spec: JSONObject
    let lines: DocumentLines
    /// The expressions compiled so far, each once.
    let compiled = ExpressionCompileCache()
    /// Which of Mapbox's specifications: `.mapbox` (the current one) or `.mapboxGLJS` (3.0.1's).
    let flavor: StyleSpecFlavor
    /// Whether the rules are the current validator's rather than Mapbox GL JS 3.0.1's.
    var isCurrent: Bool { flavor == .mapbox }

    /// What a validator is given about one value: the reference's `options`.
    struct Options {
        /// The key its messages start with (`layers[0].paint.fill-color`, or a bare `color`).
        var key: String
        /// The value; nil when absent (JavaScript's undefined).
        var value: JSONValue?
        /// Where the value is in the document, for its line; nil for a value made by the validator.
        var path: String?
        /// Its entry in the specification.
        var valueSpec: JSONObject?
        /// The style the value is part of: the document, or an import's `data`, and its path.
        var style: JSONObject?
        var stylePath: String
        var arrayIndex: Int?
        /// The object the value is a member of (a layer, for its filter), and the member's key.
        var object: JSONObject?
        var objectKey: String?
        var expressionContext: ExpressionPlace?
        var propertyType: String?
        var propertyKey: String?
        var layerType: JSONValue?
        var layer: JSONObject?

        /// The options of a member or element of this value: the same style, nothing else.
        func child(key: String, value: JSONValue?, path: String?, valueSpec: JSONObject?) -> Options {
            Options(key: key, value: value, path: path, valueSpec: valueSpec, style: style, stylePath: stylePath)
        }
    }

    /// Where an expression is, which decides the rules it must follow.
    enum ExpressionPlace: String {
        case property, filter, clusterMap, clusterReduce
    }

    /// A validator of the reference's table of validators by type.
    typealias Validator = (inout MapboxStyleValidator, Options) -> [StyleDiagnostic]

    /// Every problem of the style in `bytes` under `flavor` (one of Mapbox's), sorted as Mapbox's
    /// `validate_style.min` sorts them.
    static func validate(_ bytes: [UInt8], flavor: StyleSpecFlavor) -> [StyleDiagnostic] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            let syntaxError = JSONLintSyntaxError.describe(bytes) ?? (error.message, error.line)
            return [StyleDiagnostic(message: syntaxError.message, line: syntaxError.line, isParseError: true)]
        }
        var validator = MapboxStyleValidator(spec: reference(flavor), lines: DocumentLines(bytes: bytes), flavor: flavor)
        var diagnostics = validator.validateStyle(document, key: "", path: "")
        // `(a, b) => a.line && b.line ? a.line - b.line : 0`, in V8's sort.
        JavaScriptArraySort.sort(&diagnostics) { a, b in
            guard let first = a.line, let second = b.line else { return 0 }
            return Double(first - second)
        }
        return diagnostics
    }

    /// A whole style (the document, or an import's `data`), at `key`.
    mutating func validateStyle(_ style: JSONValue, key: String, path: String) -> [StyleDiagnostic] {
        let root = spec["$root"]?.objectValue ?? JSONObject()
        let options = Options(key: key, value: style, path: path, valueSpec: root, style: style.objectValue, stylePath: path)
        return validateObject(options, elementValidators: ["glyphs": { $0.validateGlyphs($1) }, "*": { _, _ in [] }])
    }

    // MARK: - Reporting

    /// `new ValidationError(key, value, message)`: the key first, and the value's line when the
    /// value has one (not null, not made by the validator).
    func error(_ key: String, _ message: String, value: JSONValue?, path: String?, identifier: String? = nil) -> StyleDiagnostic {
        let line = value == nil || value == .null ? nil : path.flatMap(lines.line)
        return StyleDiagnostic(message: key.isEmpty ? message : "\(key): \(message)", line: line, identifier: identifier)
    }

    func error(_ options: Options, _ message: String) -> StyleDiagnostic {
        error(options.key, message, value: options.value, path: options.path)
    }

    /// `new ValidationWarning(key, value, message)`: reported as an error is (Mapbox's validator
    /// lists it with the errors), but Mapbox loads the style all the same and only logs it — what
    /// Mapbox says of an unknown property.
    func warning(_ key: String, _ message: String, value: JSONValue?, path: String?) -> StyleDiagnostic {
        var diagnostic = error(key, message, value: value, path: path)
        diagnostic.engineLoadsAnyway = true
        return diagnostic
    }

    func section(_ name: String) -> JSONObject? { spec[name]?.objectValue }

    // MARK: - The walk

    /// The reference's `validate`: a legacy function or an expression where the property takes
    /// them, else the validator of the value's type, else the value as an object of its type's
    /// section. An array element (`asArrayElement`) that fails is checked again as an expression.
    mutating func validate(_ options: Options, asArrayElement: Bool = false) -> [StyleDiagnostic] {
        let valueSpec = options.valueSpec ?? JSONObject()
        if valueSpec["expression"] != nil, case .object? = options.value {
            return validateFunction(options)
        }
        if valueSpec["expression"] != nil, isExpression(options.value) {
            return validateExpression(options)
        }
        if let type = valueSpec["type"]?.stringValue, let validator = Self.validator(for: type) {
            let errors = validator(&self, options)
            if asArrayElement, !errors.isEmpty, case .array? = options.value { return validateExpression(options) }
            return errors
        }
        var objectOptions = options
        if let type = valueSpec["type"] {
            objectOptions.valueSpec = section(StyleValidator.javaScriptString(type))
        }
        return validateObject(objectOptions)
    }

    /// The validator of a type, as the reference's table has them; nil for a type that is a section.
    static func validator(for type: String) -> Validator? {
        switch type {
        case "*": { _, _ in [] }
        case "array": { $0.validateArray($1) }
        case "boolean", "string": { validator, options in validator.validatePrimitive(options, type) }
        case "number": { $0.validateNumber($1) }
        case "color": { $0.validateColor($1) }
        case "enum": { $0.validateEnum($1) }
        case "filter": { $0.validateFilter($1) }
        case "function": { $0.validateFunction($1) }
        case "layer": { $0.validateLayer($1) }
        case "object": { $0.validateObject($1) }
        case "source": { $0.isCurrent ? $0.validateCurrentSource($1) : $0.validateSource($1) }
        case "model": { $0.validateModelURL($1) }
        case "light": { $0.validateLight($1) }
        case "light-3d": { $0.isCurrent ? $0.validateCurrentLight3D($1) : $0.validateLight3D($1) }
        case "terrain": { $0.validateTerrain($1) }
        case "fog": { $0.validateFog($1) }
        case "formatted", "resolvedImage": { $0.validateStringOrExpression($1) }
        case "projection": { $0.validateProjection($1) }
        case "import": { $0.validateImport($1) }
        case "iconset": { $0.validateIconset($1) }
        default: nil
        }
    }

    /// Whether `value` is an expression: an array whose first element is a string naming an
    /// operator of Mapbox's language.
    func isExpression(_ value: JSONValue?) -> Bool {
        guard case .array(let elements)? = value, case .string(let head)? = elements.first else { return false }
        return ExpressionParser.isOperator(head, in: flavor)
    }

    /// The reference's `validateObject`: each member by its element validator, its entry in
    /// `valueSpec`, or the `*` validator or entry; an unknown member reported; then each required
    /// member without a default that is missing.
    mutating func validateObject(_ options: Options, elementValidators: [String: Validator] = [:]) -> [StyleDiagnostic] {
        guard case .object(let object)? = options.value else {
            return [error(options, "object expected, \(Self.typeName(options.value)) found")]
        }
        let valueSpec = options.valueSpec ?? JSONObject()
        var errors: [StyleDiagnostic] = []
        for (key, value) in Self.javaScriptOrder(object) {
            let specKey = StyleValidator.specKey(key)
            let validator: Validator
            if let own = elementValidators[specKey] {
                validator = own
            } else if valueSpec[specKey] != nil {
                validator = { $0.validate($1) }
            } else if let any = elementValidators["*"] {
                validator = any
            } else if valueSpec["*"] != nil {
                validator = { $0.validate($1) }
            } else {
                errors.append(warning(options.key, "unknown property \"\(key)\"", value: value, path: options.path.map { StyleValidator.join($0, key) }))
                continue
            }
            var member = options.child(key: StyleValidator.join(options.key, key), value: value, path: options.path.map { StyleValidator.join($0, key) },
                                       valueSpec: (valueSpec[specKey] ?? valueSpec["*"])?.objectValue)
            member.object = object
            member.objectKey = key
            errors += validator(&self, member)
        }
        for (key, entry) in valueSpec.members where elementValidators[key] == nil {
            if entry["required"] == .bool(true), entry["default"] == nil, object[key] == nil {
                errors.append(error(options, "missing required property \"\(key)\""))
            }
        }
        return errors
    }

    /// The reference's `validateArray`: the type, `length` and `min-length`, then each element by
    /// the array's item type, enum values and range (or its own entry when the item is an object).
    mutating func validateArray(_ options: Options, elementValidator: Validator? = nil) -> [StyleDiagnostic] {
        guard case .array(let elements)? = options.value else {
            return [error(options, "array expected, \(Self.typeName(options.value)) found")]
        }
        let arraySpec = options.valueSpec ?? JSONObject()
        if let length = arraySpec["length"]?.numberValue, length != 0, Double(elements.count) != length {
            return [error(options, "array length \(JavaScriptNumber.string(length)) expected, length \(elements.count) found")]
        }
        if let minimum = arraySpec["min-length"]?.numberValue, minimum != 0, Double(elements.count) < minimum {
            return [error(options, "array length at least \(JavaScriptNumber.string(minimum)) expected, length \(elements.count) found")]
        }
        var elementSpec = JSONObject()
        if case .object(let own)? = arraySpec["value"] {
            elementSpec = own
        } else {
            for key in ["type", "values", "minimum", "maximum"] {
                if let value = arraySpec[key == "type" ? "value" : key] { elementSpec[key] = value }
            }
        }
        var errors: [StyleDiagnostic] = []
        for (index, element) in elements.enumerated() {
            var elementOptions = options.child(key: "\(options.key)[\(index)]", value: element, path: options.path.map { "\($0)[\(index)]" },
                                               valueSpec: elementSpec)
            elementOptions.arrayIndex = index
            if let elementValidator {
                errors += elementValidator(&self, elementOptions)
            } else {
                errors += validate(elementOptions, asArrayElement: true)
            }
        }
        return errors
    }

    /// A string, or a boolean: the value's type only.
    func validatePrimitive(_ options: Options, _ type: String) -> [StyleDiagnostic] {
        let found = Self.typeName(options.value)
        return found == type ? [] : [error(options, "\(type) expected, \(found) found")]
    }

    /// A number, within `minimum` and `maximum` (for an element, the bound at its index when the
    /// bounds are arrays).
    func validateNumber(_ options: Options) -> [StyleDiagnostic] {
        guard case .number(let number)? = options.value else {
            return [error(options, "number expected, \(Self.typeName(options.value)) found")]
        }
        let valueSpec = options.valueSpec ?? JSONObject()
        func bound(_ name: String) -> Double? {
            switch valueSpec[name] {
            case .number(let bound)?: bound
            case .array(let bounds)?: options.arrayIndex.flatMap { $0 < bounds.count ? bounds[$0].numberValue : nil }
            default: nil
            }
        }
        if let minimum = bound("minimum"), number < minimum {
            return [error(options, "\(JavaScriptNumber.string(number)) is less than the minimum value \(JavaScriptNumber.string(minimum))")]
        }
        if let maximum = bound("maximum"), number > maximum {
            return [error(options, "\(JavaScriptNumber.string(number)) is greater than the maximum value \(JavaScriptNumber.string(maximum))")]
        }
        return []
    }

    func validateColor(_ options: Options) -> [StyleDiagnostic] {
        guard case .string(let text)? = options.value else {
            return [error(options, "color expected, \(Self.typeName(options.value)) found")]
        }
        return CSSColor.isColor(text) ? [] : [error(options, "color expected, \"\(text)\" found")]
    }

    /// One of the entry's `values` (an array, or an object's keys), compared as `===` compares.
    func validateEnum(_ options: Options) -> [StyleDiagnostic] {
        let values: [JSONValue] = options.valueSpec?["values"]?.arrayValue ?? options.valueSpec?["values"]?.objectValue?.keys.map(JSONValue.string) ?? []
        if values.contains(where: { StyleValidator.strictlyEqual($0, options.value) }) { return [] }
        let listed = values.map { StyleValidator.javaScriptString($0) }.joined(separator: ", ")
        let found = options.value.map { JSONWriter.string($0) } ?? "undefined"
        return [error(options, "expected one of [\(listed)], \(found) found")]
    }

    /// `formatted` and `resolvedImage`: a string, or else an expression.
    mutating func validateStringOrExpression(_ options: Options) -> [StyleDiagnostic] {
        validatePrimitive(options, "string").isEmpty ? [] : validateExpression(options)
    }

    func validateGlyphs(_ options: Options) -> [StyleDiagnostic] {
        var errors = validatePrimitive(options, "string")
        guard errors.isEmpty, case .string(let url)? = options.value else { return errors }
        for token in StyleValidator.glyphTokensMissing(from: url) {
            errors.append(error(options, "\"glyphs\" url must include a \"\(token)\" token"))
        }
        return errors
    }

    // MARK: - JavaScript's view of the values

    /// The reference's `getType`: `undefined` for a missing value.
    static func typeName(_ value: JSONValue?) -> String {
        value?.typeName ?? "undefined"
    }

    /// An object's members in the order JavaScript's `for...in` visits them: array-index keys
    /// first, in ascending order, then the others as written.
    static func javaScriptOrder(_ object: JSONObject) -> [(key: String, value: JSONValue)] {
        func index(_ key: String) -> UInt32? {
            guard let number = UInt32(key), number < UInt32.max, String(number) == key else { return nil }
            return number
        }
        guard object.members.contains(where: { index($0.key) != nil }) else { return object.members }
        let indexed = object.members.compactMap { member in index(member.key).map { ($0, member) } }.sorted { $0.0 < $1.0 }.map(\.1)
        return indexed + object.members.filter { index($0.key) == nil }
    }
}
