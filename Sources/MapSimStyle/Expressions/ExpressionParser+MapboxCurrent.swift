import MapSimJSON

/// What Mapbox's current expression language (`StyleSpecFlavor.mapbox`) parses otherwise than
/// Mapbox GL JS 3.0.1's: `config`, `split` and `at-interpolated` as forms of their own, `image`
/// with image options (`params`, `iconset`), and `format` options checked at their names.
extension ExpressionParser {
    /// The operators with a parser of their own in Mapbox's current language only.
    static let currentMapboxForms: Set<String> = ["config", "split", "at-interpolated"]

    /// Parses one of `currentMapboxForms`.
    func parseCurrentMapboxForm(_ op: String, _ args: [JSONValue]) -> ParsedExpression? {
        switch op {
        case "config": parseConfig(args)
        case "split": parseSplit(args)
        default: parseAtInterpolated(args)
        }
    }

    /// `["config", KEY, SCOPE?]`: literal strings (or what folds to one); the value is of the type
    /// expected here.
    private func parseConfig(_ args: [JSONValue]) -> ParsedExpression? {
        guard (2...3).contains(args.count) else { return error("Invalid number of arguments for 'config' expression.") }
        guard let key = parse(args[1], at: 1), case .literal(let keyValue) = key.form else {
            return error("Key name of 'config' expression must be a string literal.")
        }
        var children = [ParsedExpression(.literal(.string(keyValue.text)), type: .string)]
        if args.count == 3 {
            guard let scope = parse(args[2], at: 2), case .literal(let scopeValue) = scope.form else {
                return error("Scope of 'config' expression must be a string literal.")
            }
            children.append(ParsedExpression(.literal(.string(scopeValue.text)), type: .string))
        }
        return ParsedExpression(.compound("config", .config), type: expectedType ?? .value, children: children)
    }

    /// `["split", STRING, DELIMITER]`: an array of strings.
    private func parseSplit(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 else { return error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        let text = parse(args[1], at: 1, expected: .string)
        let delimiter = parse(args[2], at: 2, expected: .string)
        guard let text, let delimiter else { return nil }
        return ParsedExpression(.compound("split", .split), type: .array(.string, count: nil), children: [text, delimiter])
    }

    /// `["at-interpolated", INDEX, ARRAY]`: the item at a fractional index, interpolated between
    /// its neighbours.
    private func parseAtInterpolated(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 3 else { return error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        let index = parse(args[1], at: 1, expected: .number)
        let input = parse(args[2], at: 2, expected: .array(expectedType ?? .value, count: nil))
        guard let index, let input, case .array(let item, _) = input.type else { return nil }
        return ParsedExpression(.compound("at-interpolated", .atInterpolated), type: item, children: [index, input])
    }

    /// Mapbox's current `image`: a name and its options, then optionally a secondary name and its
    /// options; an options object has `params` (colors by name) and an `iconset` with an `id`.
    func parseCurrentMapboxImage(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 2 else { return error("Expected two or more arguments.") }
        var next = 1
        var names: [ParsedExpression] = []
        var params: [ParsedExpression] = []
        for _ in 0..<2 {
            if next < args.count {
                guard let name = parse(args[next], at: next, expected: .string) else {
                    return error(names.isEmpty ? "No image name provided." : "Secondary image variant is not a string.")
                }
                next += 1
                names.append(name)
            }
            guard next < args.count, case .object(let options) = args[next] else { continue }
            let optionsParser = child(next)
            let paramsValue = options["params"]
            let iconset = options["iconset"]
            if let paramsValue, Self.isTruthy(paramsValue) {
                guard case .object(let members) = paramsValue else { return optionsParser.error("Image options \"params\" should be an object") }
                for (key, value) in members.members {
                    guard !key.isEmpty else { return optionsParser.child(nil, name: "params").error("Image parameter name should be non-empty") }
                    let parameterParser = optionsParser.child(nil, name: "params").child(nil, name: key, expected: .color)
                    guard let parsed = parameterParser.parse(value, annotation: .coerce) else { return nil }
                    params.append(parsed)
                }
            }
            if let iconset, Self.isTruthy(iconset) {
                guard case .object(let members) = iconset else { return optionsParser.error("Image options \"iconset\" should be an object") }
                guard let id = members["id"], Self.isTruthy(id) else { return optionsParser.error("Image options \"iconset\" should have an \"id\" property") }
            }
            next += 1
        }
        return ParsedExpression(.image, type: .resolvedImage, children: names + params)
    }

    /// Mapbox's current `format`: sections, each optionally followed by its options (`font-scale`,
    /// `text-font`, `text-color`), each option checked at its name.
    func parseCurrentMapboxFormat(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 2 else { return error("Expected at least one argument.") }
        if args[1] == .null || args[1].objectValue != nil { return error("First argument must be an image or text section.") }
        var children: [ParsedExpression] = []
        var sections: [ParsedExpression.FormatSectionSlots] = []
        var nextMayBeOptions = false
        for index in 1..<args.count {
            let argument = args[index]
            if nextMayBeOptions, argument == .null || argument.objectValue != nil {
                nextMayBeOptions = false
                let options = argument.objectValue ?? JSONObject()
                let optionTypes: [(String, ExpressionType)] = [("font-scale", .number), ("text-font", .array(.string, count: nil)), ("text-color", .color)]
                for (name, type) in optionTypes {
                    guard let option = options[name], Self.isTruthy(option) else { continue }
                    guard let parsed = child(index, name: name, expected: type).parse(option) else { return nil }
                    sections[sections.count - 1].setOption(name, child: children.count)
                    children.append(parsed)
                }
            } else {
                guard let content = parse(argument, at: index, expected: .value) else { return nil }
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

    /// Mapbox's message for a constant type assertion that fails: its last argument as the
    /// reference writes it, that argument's type, and the type asserted.
    static func mapboxAssertionFailure(_ assertion: ParsedExpression) -> String? {
        guard case .assertion = assertion.form, let last = assertion.children.last, case .literal(let value) = last.form else { return nil }
        let serialized: JSONValue
        switch value {
        case .array, .object: serialized = .array([.string("literal"), value.json()])
        case .color(let color):
            let rgba = color.rgba
            serialized = .array([.string("rgba"), .number(rgba[0] * 255), .number(rgba[1] * 255), .number(rgba[2] * 255), .number(rgba[3])])
        default: serialized = value.json()
        }
        return "The expression \(JSONWriter.string(serialized)) evaluated to \(value.type) but was expected to be of type \(assertion.type)."
    }
}
