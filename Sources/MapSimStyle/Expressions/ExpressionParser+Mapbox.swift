import MapSimJSON

/// What only Mapbox's expression language does: an array that names no operator is an array of
/// literals (the reference parses it as `["to-array", array]`).
extension ExpressionParser {
    /// `elements` as an array of the item type expected here, or of the first element's type:
    /// each element a literal of that type, or an array read the same way. When nothing is
    /// expected and there is no first element, it fails without an error, as the reference does.
    func parseImplicitArray(_ elements: [JSONValue]) -> ParsedExpression? {
        let itemType: ExpressionType
        if let expected = expectedType {
            guard case .array(let item, _) = expected else { return error("Expected \(expected.kind) but found array.") }
            itemType = item
        } else {
            guard let first = elements.first else { return nil }
            itemType = ExpressionValue(first).type
        }
        var items: [ParsedExpression] = []
        for element in elements {
            if case .array = element {
                guard let parsed = child(nil, expected: itemType).parse(element) else { return nil }
                items.append(parsed)
            } else {
                let kind = element.typeName
                guard kind == itemType.kind else { return error("Expected \(itemType.kind) but found \(kind).") }
                items.append(literal(element))
            }
        }
        return ParsedExpression(.coercion, type: .array(itemType, count: elements.count), children: items)
    }
}
