import MapSimJSON

/// Parses and type-checks style expressions with the rules and messages of the style spec's
/// reference implementation: every operator, its argument counts and types, inferred type
/// assertions and coercions, `let` scopes, and constant folding.
///
/// A parser is one position in the expression being parsed: the path to it, the type expected
/// there, the variables in scope. Parsers for children share their parent's error list.
struct ExpressionParser {
    /// The errors of one parse, shared by the parsers of all its positions.
    final class ErrorList {
        var errors: [ExpressionError] = []
    }

    /// How a parsed value is adapted to the type expected of it.
    enum Annotation {
        case assert, coerce, omit
    }

    /// The position in the expression, as the indices from the top (and, in Mapbox's current
    /// language, the names of option members): its text (`[1][0]`, `[2]['font-scale']`) is made
    /// only for an error, since most positions never have one.
    final class Position: Sendable {
        let parent: Position?
        let index: Int
        /// The name of an options object's member, for a position below an index.
        let name: String?

        init(parent: Position?, index: Int, name: String? = nil) {
            self.parent = parent
            self.index = index
            self.name = name
        }

        var key: String { (parent?.key ?? "") + (name.map { "['\($0)']" } ?? "[\(index)]") }
    }

    let position: Position?
    let expectedType: ExpressionType?
    let scope: [(name: String, expression: ParsedExpression)]
    let errorList: ErrorList
    /// Whose expression language: its operators, and how an array that names none is read.
    let flavor: StyleSpecFlavor

    /// A parser for a whole expression of which `expectedType` is expected, in `flavor`'s language.
    init(expectedType: ExpressionType?, flavor: StyleSpecFlavor = .maplibre) {
        self.init(position: nil, expectedType: expectedType, scope: [], errorList: ErrorList(), flavor: flavor)
    }

    private init(position: Position?, expectedType: ExpressionType?, scope: [(name: String, expression: ParsedExpression)], errorList: ErrorList,
                 flavor: StyleSpecFlavor) {
        self.position = position
        self.expectedType = expectedType
        self.scope = scope
        self.errorList = errorList
        self.flavor = flavor
    }

    /// This position as the reference writes it: `[1][0]`, or nothing at the top.
    var key: String { position?.key ?? "" }

    var errors: [ExpressionError] { errorList.errors }

    /// A parser for the argument at `index`, expecting `expected`, with `bindings` added to the scope.
    func child(_ index: Int?, expected: ExpressionType? = nil, bindings: [(name: String, expression: ParsedExpression)] = []) -> ExpressionParser {
        ExpressionParser(position: index.map { Position(parent: position, index: $0) } ?? position, expectedType: expected,
                         scope: bindings.isEmpty ? scope : scope + bindings, errorList: errorList, flavor: flavor)
    }

    /// A parser for the member `name` of an options object, below the argument at `index` when
    /// there is one (Mapbox's `concat(index, key)`).
    func child(_ index: Int?, name: String, expected: ExpressionType? = nil) -> ExpressionParser {
        let base = index.map { Position(parent: position, index: $0) } ?? position
        return ExpressionParser(position: Position(parent: base, index: -1, name: name), expectedType: expected, scope: scope,
                                errorList: errorList, flavor: flavor)
    }

    /// A parser at the same position with a fresh error list, for trying one overload.
    func detached() -> ExpressionParser {
        ExpressionParser(position: position, expectedType: nil, scope: scope, errorList: ErrorList(), flavor: flavor)
    }

    /// Records `message` at this position, or at the child `indices` below it; returns nil.
    @discardableResult
    func error(_ message: String, at indices: Int...) -> ParsedExpression? {
        errorList.errors.append(ExpressionError(.parse, key: key + indices.map { "[\($0)]" }.joined(), message))
        return nil
    }

    /// Records a mismatch of `actual` against `expected`; true when there was one.
    func checkSubtype(_ expected: ExpressionType, _ actual: ExpressionType) -> Bool {
        guard let message = expected.mismatch(actual) else { return false }
        error(message)
        return true
    }

    /// Parses the argument at `index` of the expression this parser is at.
    func parse(_ json: JSONValue, at index: Int, expected: ExpressionType? = nil,
               bindings: [(name: String, expression: ParsedExpression)] = [], annotation: Annotation? = nil) -> ParsedExpression? {
        child(index, expected: expected, bindings: bindings).parse(json, annotation: annotation)
    }

    /// Parses `json` at this position.
    func parse(_ json: JSONValue, annotation: Annotation? = nil) -> ParsedExpression? {
        let arguments: [JSONValue]
        switch json {
        case .null, .bool, .number, .string:
            // A bare value is a literal: as ["literal", value], without building that array.
            return finish(literal(json), annotation: annotation)
        case .array(let elements):
            arguments = elements
        case .object:
            return error("Bare objects invalid. Use [\"literal\", {...}] instead.")
        }
        guard let head = arguments.first else {
            return error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
        }
        if flavor.isMapbox {
            // Mapbox reads an array that names no operator as an array of literals.
            guard case .string(let op) = head, let known = Self.operators(in: flavor)[op] else { return parseImplicitArray(arguments) }
            return finish(parseOperator(op, known, arguments), annotation: annotation)
        }
        guard case .string(let op) = head else {
            let kind = head.numberValue != nil ? "number" : head.boolValue != nil ? "boolean" : "object"
            return error("Expression name must be a string, but found \(kind) instead. If you wanted a literal array, use [\"literal\", [...]].", at: 0)
        }
        guard let known = Self.operators(in: flavor)[op] else {
            return error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].", at: 0)
        }
        return finish(parseOperator(op, known, arguments), annotation: annotation)
    }

    /// A parsed expression adapted to the type expected here, and folded when it is constant.
    private func finish(_ parsedExpression: ParsedExpression?, annotation: Annotation?) -> ParsedExpression? {
        guard var parsed = parsedExpression else { return nil }
        if let expected = expectedType {
            if expected.isAssertedFromValue && parsed.type == .value {
                parsed = annotate(parsed, as: expected, annotation ?? .assert)
            } else if Self.coerces(to: expected, from: parsed.type) {
                parsed = annotate(parsed, as: expected, annotation ?? .coerce)
            } else if checkSubtype(expected, parsed.type) {
                return nil
            }
        }
        if !parsed.isLiteral && parsed.type != .resolvedImage && parsed.isConstant {
            do {
                parsed = ParsedExpression(.literal(try ExpressionEvaluator(context: ExpressionContext()).evaluate(parsed)), type: parsed.type)
            } catch {
                return self.error((flavor == .mapbox ? Self.mapboxAssertionFailure(parsed) : nil) ?? error.message)
            }
        }
        return parsed
    }

    /// Whether a value of type `actual` is coerced, not asserted or rejected, where `expected` is expected.
    private static func coerces(to expected: ExpressionType, from actual: ExpressionType) -> Bool {
        let isArray = if case .array = actual { true } else { false }
        return switch expected {
        case .projectionDefinition: actual == .string || isArray
        case .color, .formatted, .resolvedImage: actual == .value || actual == .string
        case .padding, .numberArray: actual == .value || actual == .number || isArray
        case .colorArray: actual == .value || actual == .string || isArray
        case .variableAnchorOffsetCollection: actual == .value || isArray
        default: false
        }
    }

    private func annotate(_ parsed: ParsedExpression, as type: ExpressionType, _ annotation: Annotation) -> ParsedExpression {
        switch annotation {
        case .assert: ParsedExpression(.assertion, type: type, children: [parsed])
        case .coerce: ParsedExpression(.coercion, type: type, children: [parsed])
        case .omit: parsed
        }
    }

    /// Whether `name` is an operator of MapLibre's expression language.
    static func isOperator(_ name: String) -> Bool {
        isOperator(name, in: .maplibre)
    }

    /// Whether `name` is an operator of `flavor`'s expression language (`global-state` is
    /// MapLibre's only).
    static func isOperator(_ name: String, in flavor: StyleSpecFlavor) -> Bool {
        operators(in: flavor)[name] != nil
    }

    /// What an operator's name stands for in one flavor's language: a form with a parser of its
    /// own, or a compound operator's signatures with the operator they resolve to.
    private enum KnownOperator {
        case special(SpecialForm)
        case compound(CompoundOperators.Definition, CompoundOperator?)
        /// One of `currentMapboxForms`.
        case currentMapbox
    }

    /// Every operator of `flavor`'s language by name: an expression's operator is found with one
    /// hash of its name, not one for each table it could be in.
    private static func operators(in flavor: StyleSpecFlavor) -> [String: KnownOperator] {
        switch flavor {
        case .maplibre: maplibreOperators
        case .mapboxGLJS: mapboxGLJSOperators
        case .mapbox: mapboxOperators
        }
    }

    private static let maplibreOperators = operatorTable(for: .maplibre)
    private static let mapboxGLJSOperators = operatorTable(for: .mapboxGLJS)
    private static let mapboxOperators = operatorTable(for: .mapbox)

    /// The compound operators of `flavor`, then the special forms over them (without
    /// `global-state` in Mapbox's languages), then Mapbox's current forms over both.
    private static func operatorTable(for flavor: StyleSpecFlavor) -> [String: KnownOperator] {
        var table: [String: KnownOperator] = [:]
        for (name, definition) in CompoundOperators.definitions(flavor) { table[name] = .compound(definition, CompoundOperator(name: name)) }
        for (name, form) in specialFormsByName where flavor == .maplibre || form != .globalState { table[name] = .special(form) }
        if flavor == .mapbox {
            for name in currentMapboxForms { table[name] = .currentMapbox }
        }
        return table
    }

    /// The operators with a parser of their own.
    private enum SpecialForm {
        case comparison, assertion, coercion, at, caseForm, coalesce, collator, format, image, inForm, indexOf, interpolate
        case length, letForm, literal, match, numberFormat, slice, step, varForm, geometry, globalState
    }

    private static let specialFormsByName: [String: SpecialForm] = {
        var forms: [String: SpecialForm] = [:]
        for name in ["==", "!=", ">", "<", ">=", "<="] { forms[name] = .comparison }
        for name in ["array", "boolean", "number", "object", "string"] { forms[name] = .assertion }
        for name in ["to-boolean", "to-color", "to-number", "to-string"] { forms[name] = .coercion }
        for name in ["interpolate", "interpolate-hcl", "interpolate-lab"] { forms[name] = .interpolate }
        for name in ["within", "distance"] { forms[name] = .geometry }
        let single: [(String, SpecialForm)] = [("at", .at), ("case", .caseForm), ("coalesce", .coalesce), ("collator", .collator), ("format", .format),
                                               ("image", .image), ("in", .inForm), ("index-of", .indexOf), ("length", .length), ("let", .letForm),
                                               ("literal", .literal), ("match", .match), ("number-format", .numberFormat), ("slice", .slice),
                                               ("step", .step), ("var", .varForm), ("global-state", .globalState)]
        for (name, form) in single { forms[name] = form }
        return forms
    }()

    private func parseOperator(_ op: String, _ known: KnownOperator, _ args: [JSONValue]) -> ParsedExpression? {
        let form: SpecialForm
        switch known {
        case .currentMapbox: return parseCurrentMapboxForm(op, args)
        case .compound(let definition, let resolved): return parseCompound(op, definition, resolved, args)
        case .special(let special): form = special
        }
        switch form {
        case .comparison: return parseComparison(op, args)
        case .assertion: return parseAssertion(op, args)
        case .coercion: return parseCoercion(op, args)
        case .at: return parseAt(args)
        case .caseForm: return parseCase(args)
        case .coalesce: return parseCoalesce(args)
        case .collator: return parseCollator(args)
        case .format: return parseFormat(args)
        case .image: return parseImage(args)
        case .inForm: return parseIn(args)
        case .indexOf: return parseIndexOf(args)
        case .interpolate: return parseInterpolate(op, args)
        case .length: return parseLength(args)
        case .letForm: return parseLet(args)
        case .literal: return parseLiteral(args)
        case .match: return parseMatch(args)
        case .numberFormat: return parseNumberFormat(args)
        case .slice: return parseSlice(args)
        case .step: return parseStep(args)
        case .varForm: return parseVar(args)
        case .geometry: return parseGeometryOperator(op, args)
        case .globalState: return parseGlobalState(args)
        }
    }
}
