import MapSimJSON

/// Legacy (pre-expression) filters: `["==", "class", "park"]`, `["in", "$type", "Point"]`, `["all", ...]`,
/// checked as gl-style-validate checks them, and expression filters, checked as expressions.
extension StyleValidator {
    mutating func validateFilter(_ value: JSONValue, path: @autoclosure () -> String) {
        if StyleFilter.isExpressionFilter(value) { return validateExpression(value, path: path(), spec: nil, context: .filter) }
        validateLegacyFilter(value, path: path())
    }

    private mutating func validateLegacyFilter(_ value: JSONValue, path: String) {
        guard case .array(let parts) = value else { return reportType(path, expected: "array", found: value) }
        guard let first = parts.first else { return report(path, "filter array must have at least 1 element", value: value) }
        let operators = ["==", "!=", ">", ">=", "<", "<=", "in", "!in", "all", "any", "none", "has", "!has"]
        guard case .string(let op) = first, operators.contains(op) else {
            return report("\(path)[0]", "expected one of [\(operators.joined(separator: ", "))], \(JSONWriter.string(first)) found", value: first)
        }
        switch op {
        case "<", "<=", ">", ">=", "==", "!=", "in", "!in":
            if ["<", "<=", ">", ">="].contains(op), parts.count >= 2, parts[1] == .string("$type") {
                report(path, "\"$type\" cannot be use with operator \"\(op)\"", value: value)
            }
            if ["<", "<=", ">", ">=", "==", "!="].contains(op), parts.count != 3 {
                report(path, "filter array for operator \"\(op)\" must have 3 elements", value: value)
            }
            if parts.count >= 2, parts[1].stringValue == nil {
                reportType("\(path)[1]", expected: "string", found: parts[1])
            }
            for index in parts.indices.dropFirst(2) {
                let element = parts[index]
                if parts[1] == .string("$type") {
                    let types = ["Point", "LineString", "Polygon"]
                    if !(element.stringValue.map(types.contains) ?? false) {
                        report("\(path)[\(index)]", "expected one of [\(types.joined(separator: ", "))], \(JSONWriter.string(element)) found", value: element)
                    }
                } else if element.stringValue == nil && element.numberValue == nil && element.boolValue == nil {
                    reportType("\(path)[\(index)]", expected: "string, number, or boolean", found: element)
                }
            }
        case "any", "all", "none":
            for index in parts.indices.dropFirst() { validateLegacyFilter(parts[index], path: "\(path)[\(index)]") }
        default:
            if parts.count != 2 {
                report(path, "filter array for \"\(op)\" operator must have 2 elements", value: value)
            } else if parts[1].stringValue == nil {
                reportType("\(path)[1]", expected: "string", found: parts[1])
            }
        }
    }
}
