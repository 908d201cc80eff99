import MapSimJSON

/// Expressions in properties, filters and cluster properties, checked as gl-style-validate checks
/// them: every parse and type error at the key of the offending part, then the rules of the place
/// the expression is used.
extension StyleValidator {
    /// Where an expression is used, which decides the rules it must follow.
    enum ExpressionContext {
        /// Anything but the cases below: parsed and type-checked only.
        case plain
        /// A layout or paint property of a layer.
        case property(layout: Bool, key: String)
        case filter
        case clusterMap
        case clusterReduce

        /// What the compile cache keeps its results under: a property's section and name, or the
        /// context's name.
        var cacheScope: (scope: String, key: String) {
            switch self {
            case .plain: ("plain", "")
            case .property(let layout, let key): (layout ? "layout" : "paint", key)
            case .filter: ("filter", "")
            case .clusterMap: ("cluster-map", "")
            case .clusterReduce: ("cluster-reduce", "")
            }
        }
    }

    /// Whether `value` is an expression: an array whose first element names an operator.
    static func isExpression(_ value: JSONValue) -> Bool {
        guard case .array(let elements) = value, case .string(let head)? = elements.first else { return false }
        return ExpressionParser.isOperator(head)
    }

    /// Checks the expression `value` at `path`; its diagnostics carry the line of the whole expression.
    mutating func validateExpression(_ value: JSONValue?, path: @autoclosure () -> String, spec: JSONObject?, context: ExpressionContext,
                                     lineOf linePath: String? = nil, hasLine: Bool = true) {
        let lines = self.lines
        func add(_ key: String, _ message: String) {
            let line = value.flatMap { $0 == .null || !hasLine ? nil : lines.line(linePath ?? path()) }
            diagnostics.append(StyleDiagnostic(message: "\(path())\(key): \(message)", line: line))
        }
        guard let value else { return add("", "'undefined' value invalid. Use null instead.") }
        let result: Result<ParsedExpression, ExpressionCompilationError>
        let (scope, key) = context.cacheScope
        switch (context, spec) {
        case (.property, let spec?):
            // A property's spec is the same in every layer that has it.
            result = compiled.result(for: scope, key, value) {
                StyleExpressionCompiler.compileProperty(value, spec: spec).map(\.expression)
            }
        case (_, nil):
            // Apart from a property's own spec: compiled without one.
            result = compiled.result(for: scope + "?", key, value) { StyleExpressionCompiler.compile(value, spec: nil) }
        case (_, let spec?):
            result = StyleExpressionCompiler.compile(value, spec: spec)
        }
        let expression: ParsedExpression
        switch result {
        case .failure(let failure): return failure.errors.forEach { add($0.key, $0.message) }
        case .success(let parsed): expression = parsed
        }
        switch context {
        case .property(let layout, let key):
            if key == "text-font" && !expression.isOutputDefined {
                add("", "Invalid data expression for \"\(key)\". Output values must be contained as literals within the expression.")
            } else if layout && !expression.isStateConstant {
                add("", "\"feature-state\" data expressions are not supported with layout properties.")
            }
        case .filter:
            if !expression.isStateConstant { add("", "\"feature-state\" data expressions are not supported with filters.") }
        case .clusterMap, .clusterReduce:
            if !expression.isZoomConstant || !expression.isStateConstant {
                add("", "\"zoom\" and \"feature-state\" expressions are not supported with cluster properties.")
            }
        case .plain:
            break
        }
    }

    /// The map and reduce expressions of a clustered GeoJSON source's `clusterProperties`.
    mutating func validateClusterProperties(_ source: JSONObject, path: String) {
        // `if (value.cluster)` of a boxed value: a present `false` clusters too.
        guard Self.isPresent(source["cluster"]),
              case .object(let properties)? = source["clusterProperties"] else { return }
        for (name, definition) in properties.members {
            // `[operator, map]`; a string is taken apart into its first two characters, as the
            // reference's destructuring does, and those have no line.
            let parts: [JSONValue]
            var hasLines = true
            switch definition {
            case .array(let elements):
                parts = elements
            case .string(let text):
                parts = text.unicodeScalars.prefix(2).map { JSONValue.string(String($0)) }
                hasLines = false
            default:
                continue
            }
            let propertyPath = "\(path).\(name)"
            let definitionPath = "\(path).clusterProperties.\(name)"
            validateExpression(parts.count > 1 ? parts[1] : nil, path: "\(propertyPath).map", spec: nil, context: .clusterMap, lineOf: "\(definitionPath)[1]",
                               hasLine: hasLines)
            // A named operator is expanded into a reduce expression, which has no line of its own —
            // but only a character of a string: in an array the operator is a boxed string, which
            // the reference's `typeof operator === 'string'` does not see.
            let reduce: JSONValue
            var isExpanded = false
            if !hasLines, let op = parts.first, case .string = op {
                reduce = .array([op, .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
                isExpanded = true
            } else {
                reduce = parts.first ?? .null
            }
            validateExpression(parts.isEmpty ? nil : reduce, path: "\(propertyPath).reduce", spec: nil, context: .clusterReduce,
                               lineOf: "\(definitionPath)[0]", hasLine: !isExpanded && hasLines)
        }
    }
}
