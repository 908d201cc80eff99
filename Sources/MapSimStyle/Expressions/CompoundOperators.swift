import MapSimJSON

/// The operators the reference defines by signature alone ("compound expressions"): their output
/// type and the argument types of each overload.
enum CompoundOperators {
    /// The argument types of one overload.
    enum Signature: CustomStringConvertible {
        case fixed([ExpressionType])
        case variadic(ExpressionType)

        var description: String {
            switch self {
            case .fixed(let types): "(\(types.map(\.description).joined(separator: ", ")))"
            case .variadic(let type): "(\(type)...)"
            }
        }

        func accepts(count: Int) -> Bool {
            if case .fixed(let types) = self { return types.count == count }
            return true
        }

        func type(at index: Int) -> ExpressionType {
            switch self {
            case .fixed(let types): types[index]
            case .variadic(let type): type
            }
        }
    }

    struct Definition {
        let type: ExpressionType
        let overloads: [Signature]
    }

    private static let number = ExpressionType.number
    private static let string = ExpressionType.string
    private static let boolean = ExpressionType.boolean

    /// The compound operators of `flavor`'s expression language.
    static func definitions(_ flavor: StyleSpecFlavor) -> [String: Definition] {
        switch flavor {
        case .maplibre: definitions
        case .mapboxGLJS: mapboxDefinitions
        case .mapbox: mapboxCurrentDefinitions
        }
    }

    /// Mapbox's (GL JS 3.0.1): MapLibre's without `split`, `join` and `elevation`, with `hsl`, `hsla`,
    /// `config`, `random`, and the globals `pitch`, `distance-from-center`, `measure-light`,
    /// `raster-value` and `sky-radial-progress`.
    static let mapboxDefinitions: [String: Definition] = {
        var table = definitions
        for name in ["split", "join", "elevation"] { table[name] = nil }
        table["hsl"] = Definition(type: .color, overloads: [.fixed([number, number, number])])
        table["hsla"] = Definition(type: .color, overloads: [.fixed([number, number, number, number])])
        table["config"] = Definition(type: .value, overloads: [.fixed([string]), .fixed([string, string])])
        table["random"] = Definition(type: number, overloads: [.fixed([number, number, .value])])
        table["measure-light"] = Definition(type: number, overloads: [.fixed([string])])
        for name in ["pitch", "distance-from-center", "raster-value", "sky-radial-progress"] {
            table[name] = Definition(type: number, overloads: [.fixed([])])
        }
        return table
    }()

    /// Mapbox's current language (the SDK v11's): 3.0.1's without `config` (a form of its own now,
    /// as `split` is), with `to-hsla`, `worldview`, `is-active-floor` and `raster-particle-speed`.
    static let mapboxCurrentDefinitions: [String: Definition] = {
        var table = mapboxDefinitions
        table["config"] = nil
        table["to-hsla"] = Definition(type: .array(number, count: 4), overloads: [.fixed([.color])])
        table["worldview"] = Definition(type: string, overloads: [.fixed([])])
        table["is-active-floor"] = Definition(type: boolean, overloads: [.variadic(string)])
        table["raster-particle-speed"] = Definition(type: number, overloads: [.fixed([])])
        return table
    }()

    /// MapLibre's.
    static let definitions: [String: Definition] = {
        var table: [String: Definition] = [
            "error": Definition(type: .error, overloads: [.fixed([string])]),
            "typeof": Definition(type: string, overloads: [.fixed([.value])]),
            "to-rgba": Definition(type: .array(number, count: 4), overloads: [.fixed([.color])]),
            "rgb": Definition(type: .color, overloads: [.fixed([number, number, number])]),
            "rgba": Definition(type: .color, overloads: [.fixed([number, number, number, number])]),
            "has": Definition(type: boolean, overloads: [.fixed([string]), .fixed([string, .object])]),
            "get": Definition(type: .value, overloads: [.fixed([string]), .fixed([string, .object])]),
            "feature-state": Definition(type: .value, overloads: [.fixed([string])]),
            "properties": Definition(type: .object, overloads: [.fixed([])]),
            "geometry-type": Definition(type: string, overloads: [.fixed([])]),
            "id": Definition(type: .value, overloads: [.fixed([])]),
            "accumulated": Definition(type: .value, overloads: [.fixed([])]),
            "+": Definition(type: number, overloads: [.variadic(number)]),
            "*": Definition(type: number, overloads: [.variadic(number)]),
            "-": Definition(type: number, overloads: [.fixed([number, number]), .fixed([number])]),
            "min": Definition(type: number, overloads: [.variadic(number)]),
            "max": Definition(type: number, overloads: [.variadic(number)]),
            "filter-id-==": Definition(type: boolean, overloads: [.fixed([.value])]),
            "filter-type-==": Definition(type: boolean, overloads: [.fixed([string])]),
            "filter-has": Definition(type: boolean, overloads: [.fixed([.value])]),
            "filter-has-id": Definition(type: boolean, overloads: [.fixed([])]),
            "filter-type-in": Definition(type: boolean, overloads: [.fixed([.array(string, count: nil)])]),
            "filter-id-in": Definition(type: boolean, overloads: [.fixed([.array(.value, count: nil)])]),
            "filter-in-small": Definition(type: boolean, overloads: [.fixed([string, .array(.value, count: nil)])]),
            "filter-in-large": Definition(type: boolean, overloads: [.fixed([string, .array(.value, count: nil)])]),
            "all": Definition(type: boolean, overloads: [.fixed([boolean, boolean]), .variadic(boolean)]),
            "any": Definition(type: boolean, overloads: [.fixed([boolean, boolean]), .variadic(boolean)]),
            "!": Definition(type: boolean, overloads: [.fixed([boolean])]),
            "is-supported-script": Definition(type: boolean, overloads: [.fixed([string])]),
            "concat": Definition(type: string, overloads: [.variadic(.value)]),
            "split": Definition(type: .array(string, count: nil), overloads: [.fixed([string, string])]),
            "join": Definition(type: string, overloads: [.fixed([.array(string, count: nil), string])]),
            "resolved-locale": Definition(type: string, overloads: [.fixed([.collator])]),
        ]
        for name in ["zoom", "heatmap-density", "elevation", "line-progress", "ln2", "pi", "e"] {
            table[name] = Definition(type: number, overloads: [.fixed([])])
        }
        for name in ["/", "%", "^"] {
            table[name] = Definition(type: number, overloads: [.fixed([number, number])])
        }
        for name in ["sqrt", "log10", "ln", "log2", "sin", "cos", "tan", "asin", "acos", "atan", "abs", "round", "floor", "ceil"] {
            table[name] = Definition(type: number, overloads: [.fixed([number])])
        }
        for name in ["upcase", "downcase"] {
            table[name] = Definition(type: string, overloads: [.fixed([string])])
        }
        for op in ["==", "<", ">", "<=", ">="] {
            table["filter-\(op)"] = Definition(type: boolean, overloads: [.fixed([string, .value])])
            if op != "==" { table["filter-id-\(op)"] = Definition(type: boolean, overloads: [.fixed([.value])]) }
        }
        return table
    }()
}

extension ExpressionParser {
    /// Parses a compound operator: tries each overload with the right number of arguments, and
    /// reports the one overload's errors or, when several fit, the signatures against the types found.
    /// `definition` is `op`'s signatures in this flavor, `resolved` the operator it evaluates as.
    func parseCompound(_ op: String, _ definition: CompoundOperators.Definition, _ resolved: CompoundOperator?, _ args: [JSONValue]) -> ParsedExpression? {
        let overloads = definition.overloads.filter { $0.accepts(count: args.count - 1) }
        var lastAttempt: ExpressionParser?
        overloadLoop: for signature in overloads {
            let attempt = detached()
            lastAttempt = attempt
            var parsedArgs: [ParsedExpression] = []
            for index in 1..<max(args.count, 1) {
                guard let parsed = attempt.parse(args[index], at: index, expected: signature.type(at: index - 1)) else { continue overloadLoop }
                parsedArgs.append(parsed)
            }
            for (index, argument) in parsedArgs.enumerated() {
                _ = attempt.child(index + 1).checkSubtype(signature.type(at: index), argument.type)
            }
            if attempt.errors.isEmpty, let resolved {
                return ParsedExpression(.compound(op, resolved), type: definition.type, children: parsedArgs)
            }
        }
        if overloads.count == 1, let lastAttempt {
            errorList.errors += lastAttempt.errors
        } else {
            let signatures = (overloads.isEmpty ? definition.overloads : overloads).map(\.description).joined(separator: " | ")
            var actualTypes: [String] = []
            for index in 1..<max(args.count, 1) {
                guard let parsed = parse(args[index], at: index) else { return nil }
                actualTypes.append(parsed.type.description)
            }
            error("Expected arguments of type \(signatures), but found (\(actualTypes.joined(separator: ", "))) instead.")
        }
        return nil
    }
}
