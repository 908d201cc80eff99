import MapSimJSON

/// The operators with their own parsing rules ("special forms"), each with the reference's messages.
extension ExpressionParser {
    func parseLiteral(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 2 else {
            return error("'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        return literal(args[1])
    }

    /// The literal `json`, typed as the reference types it.
    func literal(_ json: JSONValue) -> ParsedExpression {
        let value = ExpressionValue(json)
        var type = value.type
        // An empty array takes the item type expected of it.
        if case .array(_, count: 0) = type, case .array(_, let count)? = expectedType, count == nil || count == 0 {
            type = expectedType ?? type
        }
        return ParsedExpression(.literal(value), type: type)
    }

    func parseAssertion(_ name: String, _ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 2 else { return error("Expected at least one argument.") }
        let primitive: [String: ExpressionType] = ["string": .string, "number": .number, "boolean": .boolean, "object": .object]
        var index = 1
        let type: ExpressionType
        if name == "array" {
            var item = ExpressionType.value
            if args.count > 2 {
                guard case .string(let itemName) = args[1], itemName != "object", let itemType = primitive[itemName] else {
                    return error("The item type argument of \"array\" must be one of string, number, boolean", at: 1)
                }
                item = itemType
                index += 1
            }
            var count: Int?
            if args.count > 3 {
                if args[2] != .null {
                    guard case .number(let n) = args[2], n >= 0, n == n.rounded(.down) else {
                        return error("The length argument to \"array\" must be a positive integer literal", at: 2)
                    }
                    count = Int(n)
                }
                index += 1
            }
            type = .array(item, count: count)
        } else {
            type = primitive[name] ?? .value
        }
        var children: [ParsedExpression] = []
        while index < args.count {
            guard let input = parse(args[index], at: index, expected: .value) else { return nil }
            children.append(input)
            index += 1
        }
        return ParsedExpression(.assertion, type: type, children: children)
    }

    func parseCoercion(_ name: String, _ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 2 else { return error("Expected at least one argument.") }
        if (name == "to-boolean" || name == "to-string") && args.count != 2 { return error("Expected one argument.") }
        let types: [String: ExpressionType] = ["to-boolean": .boolean, "to-color": .color, "to-number": .number, "to-string": .string]
        var children: [ParsedExpression] = []
        for index in 1..<args.count {
            guard let input = parse(args[index], at: index, expected: .value) else { return nil }
            children.append(input)
        }
        return ParsedExpression(.coercion, type: types[name] ?? .value, children: children)
    }

    func parseLet(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 4 else { return error("Expected at least 3 arguments, but found \(args.count - 1) instead.") }
        var bindings: [(name: String, expression: ParsedExpression)] = []
        var index = 1
        while index < args.count - 1 {
            guard case .string(let name) = args[index] else {
                return error("Expected string, but found \(Self.javaScriptType(args[index])) instead.", at: index)
            }
            guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
                return error("Variable names must contain only alphanumeric characters or '_'.", at: index)
            }
            guard let value = parse(args[index + 1], at: index + 1) else { return nil }
            bindings.append((name, value))
            index += 2
        }
        guard let result = parse(args[args.count - 1], at: args.count - 1, expected: expectedType, bindings: bindings) else { return nil }
        return ParsedExpression(.let, type: result.type, children: bindings.map(\.expression) + [result])
    }

    func parseVar(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 2, case .string(let name) = args[1] else {
            return error("'var' expression requires exactly one string literal argument.")
        }
        guard let bound = scope.last(where: { $0.name == name })?.expression else {
            return error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.", at: 1)
        }
        return ParsedExpression(.variable(bound), type: bound.type)
    }

    func parseAt(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 else { return error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        let index = parse(args[1], at: 1, expected: .number)
        let input = parse(args[2], at: 2, expected: .array(expectedType ?? .value, count: nil))
        guard let index, let input else { return nil }
        guard case .array(let item, _) = input.type else { return nil }
        return ParsedExpression(.at, type: item, children: [index, input])
    }

    func parseIn(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 else { return error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        let needle = parse(args[1], at: 1, expected: .value)
        let haystack = parse(args[2], at: 2, expected: .value)
        guard let needle, let haystack else { return nil }
        guard ["boolean", "string", "number", "null", "value"].contains(needle.type.kind) else {
            return error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
        }
        return ParsedExpression(.in, type: .boolean, children: [needle, haystack])
    }

    func parseIndexOf(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 || args.count == 4 else { return error("Expected \(argumentCounts) arguments, but found \(args.count - 1) instead.") }
        let needle = parse(args[1], at: 1, expected: .value)
        let haystack = parse(args[2], at: 2, expected: .value)
        guard let needle, let haystack else { return nil }
        guard ["boolean", "string", "number", "null", "value"].contains(needle.type.kind) else {
            return error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
        }
        var children = [needle, haystack]
        if args.count == 4 {
            guard let from = parse(args[3], at: 3, expected: .number) else { return nil }
            children.append(from)
        }
        return ParsedExpression(.indexOf, type: .number, children: children)
    }

    func parseSlice(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 || args.count == 4 else { return error("Expected \(argumentCounts) arguments, but found \(args.count - 1) instead.") }
        let input = parse(args[1], at: 1, expected: .value)
        let begin = parse(args[2], at: 2, expected: .number)
        guard let input, let begin else { return nil }
        guard ["array", "string", "value"].contains(input.type.kind) else {
            return error("Expected first argument to be of type array or string, but found \(input.type) instead")
        }
        var children = [input, begin]
        if args.count == 4 {
            guard let end = parse(args[3], at: 3, expected: .number) else { return nil }
            children.append(end)
        }
        return ParsedExpression(.slice, type: input.type, children: children)
    }

    func parseLength(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 2 else { return error("Expected 1 argument, but found \(args.count - 1) instead.") }
        guard let input = parse(args[1], at: 1) else { return nil }
        guard ["array", "string", "value"].contains(input.type.kind) else {
            return error("Expected argument of type string or array, but found \(input.type) instead.")
        }
        return ParsedExpression(.length, type: .number, children: [input])
    }

    func parseCase(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 4 else { return error("Expected at least 3 arguments, but found only \(args.count - 1).") }
        guard args.count % 2 == 0 else { return error("Expected an odd number of arguments.") }
        var output = expectedType.flatMap { $0 == .value ? nil : $0 }
        var children: [ParsedExpression] = []
        var index = 1
        while index < args.count - 1 {
            guard let test = parse(args[index], at: index, expected: .boolean) else { return nil }
            guard let result = parse(args[index + 1], at: index + 1, expected: output) else { return nil }
            children += [test, result]
            output = output ?? result.type
            index += 2
        }
        guard let otherwise = parse(args[args.count - 1], at: args.count - 1, expected: output) else { return nil }
        return ParsedExpression(.case, type: output ?? otherwise.type, children: children + [otherwise])
    }

    /// The properties of JavaScript's `Object.prototype` (as V8 has them): keys a plain object has
    /// before anything is put in it.
    static let objectPrototypeNames = ["constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__",
                                       "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString"]

    /// `objectPrototypeNames` as the keys `match` compares: their UTF-8 bytes.
    private static let objectPrototypeKeys = Set(objectPrototypeNames.map { Array($0.utf8) })

    func parseMatch(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 5 else { return error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard args.count % 2 == 1 else { return error("Expected an even number of arguments.") }
        var inputType: ExpressionType?
        var output = expectedType.flatMap { $0 == .value ? nil : $0 }
        // The reference keys its branches by `String(label)` in a plain object: the names
        // `Object.prototype` has are taken already, and keys compare by UTF-16 code units (never
        // as canonically equivalent Unicode) — as their UTF-8 bytes compare.
        var seen: Set<[UInt8]> = []
        var labelSets: [[ExpressionValue]] = []
        var outputs: [ParsedExpression] = []
        var index = 2
        while index < args.count - 1 {
            let labels = args[index].arrayValue ?? [args[index]]
            let labelParser = child(index)
            guard !labels.isEmpty else { return labelParser.error("Expected at least one branch label.") }
            for label in labels {
                let key: String
                switch label {
                case .number(let n):
                    if abs(n) > 9_007_199_254_740_991 {
                        return labelParser.error("Branch labels must be integers no larger than 9007199254740991.")
                    }
                    if n.rounded(.down) != n { return labelParser.error("Numeric branch labels must be integer values.") }
                    key = JavaScriptNumber.string(n)
                case .string(let s):
                    key = s
                default:
                    return labelParser.error("Branch labels must be numbers or strings.")
                }
                let type = ExpressionValue(label).type
                if let inputType {
                    if labelParser.checkSubtype(inputType, type) { return nil }
                } else {
                    inputType = type
                }
                let bytes = Array(key.utf8)
                guard !Self.objectPrototypeKeys.contains(bytes), seen.insert(bytes).inserted else { return labelParser.error("Branch labels must be unique.") }
            }
            // The reference reports a branch's output at its label's position.
            guard let result = parse(args[index + 1], at: index, expected: output) else { return nil }
            output = output ?? result.type
            outputs.append(result)
            labelSets.append(labels.map(ExpressionValue.init))
            index += 2
        }
        guard let input = parse(args[1], at: 1, expected: .value) else { return nil }
        guard let otherwise = parse(args[args.count - 1], at: args.count - 1, expected: output) else { return nil }
        if input.type != .value, let inputType, child(1).checkSubtype(inputType, input.type) { return nil }
        return ParsedExpression(.match(ParsedExpression.MatchTable(labelSets)), type: output ?? otherwise.type, children: [input] + outputs + [otherwise])
    }

    func parseCoalesce(_ args: [JSONValue]) -> ParsedExpression? {
        // Mapbox's message has its typo.
        guard args.count >= 2 else { return error(flavor.isMapbox ? "Expectected at least one argument." : "Expected at least one argument.") }
        var output = expectedType.flatMap { $0 == .value ? nil : $0 }
        var children: [ParsedExpression] = []
        for argument in args.dropFirst() {
            guard let parsed = parse(argument, at: children.count + 1, expected: output, annotation: .omit) else { return nil }
            output = output ?? parsed.type
            children.append(parsed)
        }
        // Arguments that would have needed an annotation make the whole coalesce a value, annotated by its parent.
        let needsAnnotation = expectedType.map { expected in children.contains { !expected.accepts($0.type) } } ?? false
        return ParsedExpression(.coalesce, type: needsAnnotation ? .value : output ?? .value, children: children)
    }

    func parseStep(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count - 1 >= 4 else { return error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard (args.count - 1) % 2 == 0 else { return error("Expected an even number of arguments.") }
        guard let input = parse(args[1], at: 1, expected: .number) else { return nil }
        var output = expectedType.flatMap { $0 == .value ? nil : $0 }
        guard let (labels, outputs) = parseStops("step", args, from: 1, output: &output) else { return nil }
        return ParsedExpression(.step(labels: labels), type: output ?? .value, children: [input] + outputs)
    }

    /// The input/output pairs of a `step` or `interpolate` from `start`; a step's first label is
    /// implicit (minus infinity). The first output fixes the output type when none is expected.
    private func parseStops(_ name: String, _ args: [JSONValue], from start: Int, output: inout ExpressionType?)
        -> (labels: [Double], outputs: [ParsedExpression])? {
        var labels: [Double] = []
        var outputs: [ParsedExpression] = []
        var index = start
        while index < args.count {
            let label: Double
            if name == "step" && index == start {
                label = -.infinity
            } else if case .number(let n) = args[index] {
                label = n
            } else {
                error("Input/output pairs for \"\(name)\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", at: index)
                return nil
            }
            if let last = labels.last, last >= label {
                error("Input/output pairs for \"\(name)\" expressions must be arranged with input values in strictly ascending order.", at: index)
                return nil
            }
            guard let parsed = parse(args[index + 1], at: index + 1, expected: output) else { return nil }
            output = output ?? parsed.type
            labels.append(label)
            outputs.append(parsed)
            index += 2
        }
        return (labels, outputs)
    }

    func parseInterpolate(_ op: String, _ args: [JSONValue]) -> ParsedExpression? {
        guard args.count > 1, case .array(let interpolation) = args[1], let name = interpolation.first else {
            return error("Expected an interpolation type expression.", at: 1)
        }
        let curve: ParsedExpression.InterpolationCurve
        switch name {
        case .string("linear"):
            curve = .linear
        case .string("exponential"):
            guard interpolation.count > 1, case .number(let base) = interpolation[1] else {
                return error("Exponential interpolation requires a numeric base.", at: 1, 1)
            }
            curve = .exponential(base: base)
        case .string("cubic-bezier"):
            let points = interpolation.dropFirst().compactMap { $0.numberValue.flatMap { (0...1).contains($0) ? $0 : nil } }
            guard interpolation.count == 5, points.count == 4 else {
                return error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", at: 1)
            }
            curve = .cubicBezier(UnitBezier(points[0], points[1], points[2], points[3]))
        default:
            return error("Unknown interpolation type \(Self.javaScriptString(name))", at: 1, 0)
        }
        guard args.count - 1 >= 4 else { return error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard (args.count - 1) % 2 == 0 else { return error("Expected an even number of arguments.") }
        guard let input = parse(args[2], at: 2, expected: .number) else { return nil }
        var output: ExpressionType?
        if op != "interpolate", expectedType != .colorArray {
            output = .color
        } else if let expectedType, expectedType != .value {
            output = expectedType
        }
        guard let (labels, outputs) = parseStops("interpolate", args, from: 3, output: &output) else { return nil }
        let type = output ?? .value
        let interpolatable: Bool
        switch type {
        case .number, .projectionDefinition, .color, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection: interpolatable = true
        case .array(.number, let count): interpolatable = count != nil
        default: interpolatable = false
        }
        guard interpolatable else { return error("Type \(type) is not interpolatable.") }
        let space: RGBAColor.Space = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
        return ParsedExpression(.interpolate(labels: labels, curve: curve, space: space), type: type, children: [input] + outputs)
    }

    func parseComparison(_ op: String, _ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 || args.count == 4 else { return error("Expected two or three arguments.") }
        let ordering = op != "==" && op != "!="
        func comparable(_ type: ExpressionType) -> Bool {
            ordering ? ["string", "number", "value"].contains(type.kind) : ["boolean", "string", "number", "null", "value"].contains(type.kind)
        }
        guard var lhs = parse(args[1], at: 1, expected: .value) else { return nil }
        guard comparable(lhs.type) else { return child(1).error("\"\(op)\" comparisons are not supported for type '\(lhs.type)'.") }
        guard var rhs = parse(args[2], at: 2, expected: .value) else { return nil }
        guard comparable(rhs.type) else { return child(2).error("\"\(op)\" comparisons are not supported for type '\(rhs.type)'.") }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            return error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
        }
        if ordering {
            if lhs.type == .value && rhs.type != .value {
                lhs = ParsedExpression(.assertion, type: rhs.type, children: [lhs])
            } else if lhs.type != .value && rhs.type == .value {
                rhs = ParsedExpression(.assertion, type: lhs.type, children: [rhs])
            }
        }
        var children = [lhs, rhs]
        if args.count == 4 {
            if ![lhs.type.kind, rhs.type.kind].contains(where: { $0 == "string" || $0 == "value" }) {
                return error("Cannot use collator to compare non-string types.")
            }
            guard let collator = parse(args[3], at: 3, expected: .collator) else { return nil }
            children.append(collator)
        }
        return ParsedExpression(.comparison(op, collator: args.count == 4), type: .boolean, children: children)
    }

    func parseCollator(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 2 else { return error("Expected one argument.") }
        guard case .object(let options) = args[1] else { return error("Collator options argument must be an object.") }
        guard let caseSensitive = parse(options["case-sensitive"] ?? .bool(false), at: 1, expected: .boolean),
              let diacriticSensitive = parse(options["diacritic-sensitive"] ?? .bool(false), at: 1, expected: .boolean) else { return nil }
        var children = [caseSensitive, diacriticSensitive]
        if let locale = options["locale"], Self.isTruthy(locale) {
            guard let parsed = parse(locale, at: 1, expected: .string) else { return nil }
            children.append(parsed)
        }
        return ParsedExpression(.collator, type: .collator, children: children)
    }

    func parseFormat(_ args: [JSONValue]) -> ParsedExpression? {
        if flavor == .mapbox { return parseCurrentMapboxFormat(args) }
        guard args.count >= 2 else { return error("Expected at least one argument.") }
        // JavaScript's `typeof null` is "object": a null first argument is refused as an object is.
        if args[1] == .null || args[1].objectValue != nil { return error("First argument must be an image or text section.") }
        var children: [ParsedExpression] = []
        var sections: [ParsedExpression.FormatSectionSlots] = []
        var nextMayBeOptions = false
        for argument in args.dropFirst() {
            if nextMayBeOptions, case .object(let options) = argument {
                nextMayBeOptions = false
                let optionTypes: [(String, ExpressionType)] = [
                    ("font-scale", .number), ("text-font", .array(.string, count: nil)), ("text-color", .color), ("vertical-align", .string),
                ]
                for (name, type) in optionTypes {
                    guard let option = options[name], Self.isTruthy(option) else { continue }
                    if name == "vertical-align", case .string(let align) = option, !["bottom", "center", "top"].contains(align) {
                        return error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(align)' instead.")
                    }
                    guard let parsed = parse(option, at: 1, expected: type) else { return nil }
                    sections[sections.count - 1].setOption(name, child: children.count)
                    children.append(parsed)
                }
            } else {
                guard let content = parse(argument, at: 1, expected: .value) else { return nil }
                guard ["string", "value", "null", "resolvedImage"].contains(content.type.kind) else {
                    return error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                }
                nextMayBeOptions = true
                sections.append(ParsedExpression.FormatSectionSlots(content: children.count))
                children.append(content)
            }
        }
        return ParsedExpression(.format(sections), type: .formatted, children: children)
    }

    func parseImage(_ args: [JSONValue]) -> ParsedExpression? {
        if flavor == .mapbox { return parseCurrentMapboxImage(args) }
        if flavor.isMapbox { return parseMapboxImage(args) }
        guard args.count == 2 else { return error("Expected two arguments.") }
        guard let name = parse(args[1], at: 1, expected: .string) else { return error("No image name provided.") }
        return ParsedExpression(.image, type: .resolvedImage, children: [name])
    }

    func parseNumberFormat(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 else { return error("Expected two arguments.") }
        guard let number = parse(args[1], at: 1, expected: .number) else { return nil }
        guard case .object(let options) = args[2] else { return error("NumberFormat options argument must be an object.") }
        var children = [number]
        var slots = ParsedExpression.NumberFormatSlots()
        let optionTypes: [(String, ExpressionType)] = [
            ("locale", .string), ("currency", .string), ("unit", .string), ("min-fraction-digits", .number), ("max-fraction-digits", .number),
        ]
        for (name, type) in optionTypes {
            guard let option = options[name], Self.isTruthy(option) else { continue }
            guard let parsed = parse(option, at: 1, expected: type) else { return nil }
            slots.setOption(name, child: children.count)
            children.append(parsed)
        }
        // MapLibre's own rule (and 3.0.1's here, as before); Mapbox's current language has none.
        if flavor != .mapbox, let currency = options["currency"], let unit = options["unit"], Self.isTruthy(currency), Self.isTruthy(unit) {
            return error("NumberFormat options `currency` and `unit` are mutually exclusive")
        }
        return ParsedExpression(.numberFormat(slots), type: .string, children: children)
    }

    func parseGeometryOperator(_ op: String, _ args: [JSONValue]) -> ParsedExpression? {
        if op == "distance" && flavor.isMapbox { return parseMapboxDistance(args) }
        guard args.count == 2 else { return error("'\(op)' expression requires exactly one argument, but found \(args.count - 1) instead.") }
        let allowed: Set<String> = op == "within"
            ? ["Polygon", "MultiPolygon"]
            : ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]
        func isGeometry(_ value: JSONValue?) -> Bool { value?["type"]?.stringValue.map(allowed.contains) ?? false }
        let geojson = args[1]
        let valid: Bool
        switch geojson["type"]?.stringValue {
        case "FeatureCollection" where op == "distance", "Feature" where op == "distance":
            // The reference's `distance` takes any feature or collection, and any object with a type and coordinates.
            valid = true
        case "FeatureCollection":
            valid = geojson["features"]?.arrayValue?.contains { isGeometry($0["geometry"]) } ?? false
        case "Feature":
            valid = isGeometry(geojson["geometry"])
        default:
            valid = op == "distance" ? geojson["type"] != nil && geojson["coordinates"] != nil : isGeometry(geojson)
        }
        guard valid else { return error("'\(op)' expression requires valid geojson object that contains polygon geometry type.") }
        let shape = GeoJSONShape(geojson)
        return ParsedExpression(op == "within" ? .within(shape) : .distance(shape), type: op == "within" ? .boolean : .number)
    }

    func parseGlobalState(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 2 else { return error("Expected 1 argument, but found \(args.count - 1) instead.") }
        if args[1] == .null { return error("Global state property must be defined.") }
        guard case .string(let key) = args[1] else {
            return error("Global state property must be string, but found \(Self.javaScriptType(args[1])) instead.")
        }
        return ParsedExpression(.globalState(key), type: .value)
    }

    /// JavaScript's `typeof` of a JSON value.
    static func javaScriptType(_ value: JSONValue) -> String {
        switch value {
        case .number: "number"
        case .string: "string"
        case .bool: "boolean"
        default: "object"
        }
    }

    /// JavaScript's `String(value)` of a JSON value.
    static func javaScriptString(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JavaScriptNumber.string(n)
        case .string(let s): s
        case .array(let items): items.map { $0 == .null ? "" : javaScriptString($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// JavaScript truthiness of a JSON value.
    static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let b): b
        case .number(let n): n != 0 && !n.isNaN
        case .string(let s): !s.isEmpty
        default: true
        }
    }
}
