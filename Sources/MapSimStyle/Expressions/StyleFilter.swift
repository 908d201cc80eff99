import MapSimJSON

/// A layer's `filter`, compiled as the SDKs compile it: an expression filter as it is, a legacy
/// filter (`["==", "class", "x"]`, `in`, `!in`, `has`, `!has`, `all`, `any`, `none`, `$type`,
/// `$id`) converted first to the reference's filter expressions. A feature passes when the filter
/// evaluates to true; an error or a null counts as false, as in the SDKs.
public struct StyleFilter: Sendable, Equatable {
    let expression: StyleExpression?
    /// Whether no feature passes (a filter that could not be compiled).
    private let rejectsAll: Bool

    /// The filter of a layer without one: every feature passes.
    public static let none = StyleFilter(expression: nil, rejectsAll: false)
    /// A filter no feature passes.
    static let nothing = StyleFilter(expression: nil, rejectsAll: true)

    private init(expression: StyleExpression?, rejectsAll: Bool) {
        self.expression = expression
        self.rejectsAll = rejectsAll
    }

    public static func == (lhs: StyleFilter, rhs: StyleFilter) -> Bool {
        lhs.rejectsAll == rhs.rejectsAll && lhs.expression?.source == rhs.expression?.source
    }

    /// The filter's property spec: a boolean of zoom and feature, not interpolated, default false.
    private static let spec = JSONObject([
        ("type", .string("boolean")), ("default", .bool(false)), ("property-type", .string("data-driven")),
        ("expression", .object(JSONObject([("interpolated", .bool(false)), ("parameters", .array([.string("zoom"), .string("feature")]))]))),
    ])

    /// The filter `json` (nil or absent: every feature passes), in `flavor`'s expression language.
    public init(_ json: JSONValue?, flavor: StyleSpecFlavor = .maplibre) throws(ExpressionCompilationError) {
        rejectsAll = false
        guard let json, json != .null else {
            expression = nil
            return
        }
        let converted = Self.isExpressionFilter(json) ? json : Self.convert(json)
        switch StyleExpression.compile(converted, propertySpec: Self.spec, propertyRules: false, flavor: flavor) {
        case .success(let compiled): expression = compiled
        case .failure(let failure): throw ExpressionCompilationError(.invalidFilter, failure.errors)
        }
    }

    /// Whether the filter needs nothing of the feature (every feature passes or none does at a zoom).
    public var isFeatureConstant: Bool { expression?.isFeatureConstant ?? true }

    /// Whether every feature passes: no filter, or one that is constantly true.
    public var passesEverything: Bool { expression == nil && !rejectsAll }

    /// Whether the feature in `context` passes.
    public func matches(_ context: ExpressionContext) -> Bool {
        guard let expression else { return !rejectsAll }
        return (try? expression.evaluate(context))?.isTruthy ?? false
    }

    /// Whether `filter` is written as an expression rather than in the legacy syntax (the
    /// reference's rules, which look only at the operator and the arguments' shapes).
    public static func isExpressionFilter(_ filter: JSONValue) -> Bool {
        if case .bool = filter { return true }
        guard case .array(let items) = filter, let first = items.first else { return false }
        func isArray(_ index: Int) -> Bool { index < items.count && items[index].arrayValue != nil }
        switch first.stringValue {
        case "has":
            return items.count >= 2 && items[1] != .string("$id") && items[1] != .string("$type")
        case "in":
            return items.count >= 3 && (items[1].stringValue == nil || isArray(2))
        case "!in", "!has", "none":
            return false
        case "==", "!=", ">", ">=", "<", "<=":
            return items.count != 3 || isArray(1) || isArray(2)
        case "any", "all":
            return items.dropFirst().allSatisfy(isExpressionFilter)
        default:
            return true
        }
    }

    /// The expression the reference converts a legacy filter to.
    static func convert(_ filter: JSONValue) -> JSONValue {
        guard case .array(let items) = filter, !items.isEmpty else { return .bool(true) }
        let op = items[0].stringValue ?? ""
        if items.count <= 1 { return .bool(op != "any") }
        let rest = Array(items.dropFirst())
        func not(_ value: JSONValue) -> JSONValue { .array([.string("!"), value]) }
        switch op {
        case "==": return comparison(items[1], items.count > 2 ? items[2] : .null, "==")
        case "!=": return not(comparison(items[1], items.count > 2 ? items[2] : .null, "=="))
        case "<", ">", "<=", ">=": return comparison(items[1], items.count > 2 ? items[2] : .null, op)
        case "any": return .array([.string("any")] + rest.map(convert))
        case "all": return .array([.string("all")] + rest.map(convert))
        case "none": return .array([.string("all")] + rest.map { not(convert($0)) })
        case "in": return membership(items[1], Array(items.dropFirst(2)))
        case "!in": return not(membership(items[1], Array(items.dropFirst(2))))
        case "has": return has(items[1])
        case "!has": return not(has(items[1]))
        default: return .bool(true)
        }
    }

    private static func comparison(_ property: JSONValue, _ value: JSONValue, _ op: String) -> JSONValue {
        switch property.stringValue {
        case "$type": .array([.string("filter-type-\(op)"), value])
        case "$id": .array([.string("filter-id-\(op)"), value])
        default: .array([.string("filter-\(op)"), property, value])
        }
    }

    private static func membership(_ property: JSONValue, _ values: [JSONValue]) -> JSONValue {
        if values.isEmpty { return .bool(false) }
        let list = JSONValue.array([.string("literal"), .array(values)])
        switch property.stringValue {
        case "$type": return .array([.string("filter-type-in"), list])
        case "$id": return .array([.string("filter-id-in"), list])
        default: return .array([.string("filter-in-small"), property, list])
        }
    }

    private static func has(_ property: JSONValue) -> JSONValue {
        switch property.stringValue {
        case "$type": .bool(true)
        case "$id": .array([.string("filter-has-id")])
        default: .array([.string("filter-has"), property])
        }
    }
}
