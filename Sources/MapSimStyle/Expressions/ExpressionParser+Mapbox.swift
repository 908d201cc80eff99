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

    /// How many arguments `index-of` and `slice` take, as the message counts them: MapLibre counts
    /// the operands, Mapbox (3.0.1) the array's elements.
    var argumentCounts: String {
        flavor.isMapbox ? "3 or 4" : "2 or 3"
    }

    /// Mapbox's `image`: a name, and optionally a secondary image variant (a string, which Mapbox
    /// parses at the name's position); anything after that is not read.
    func parseMapboxImage(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count >= 2 else { return error("Expected two or more arguments.") }
        guard let name = parse(args[1], at: 1, expected: .string) else { return error("No image name provided.") }
        guard args.count > 2 else { return ParsedExpression(.image, type: .resolvedImage, children: [name]) }
        guard let variant = parse(args[2], at: 1, expected: .string) else { return error("Secondary image variant is not a string.") }
        return ParsedExpression(.image, type: .resolvedImage, children: [name, variant])
    }

    /// Mapbox's `distance`: to the first geometry of a point, line or polygon type that the GeoJSON
    /// is, or that its feature or collection holds, with Mapbox's messages.
    func parseMapboxDistance(_ args: [JSONValue]) -> ParsedExpression? {
        guard args.count == 2 else { return error("'distance' expression requires either one argument, but found ' \(args.count - 1) instead.") }
        let types: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]
        func isGeometry(_ value: JSONValue?) -> Bool { value?["type"]?.stringValue.map(types.contains) ?? false }
        let geojson = args[1]
        let geometry: JSONValue?
        switch geojson["type"]?.stringValue {
        case "FeatureCollection": geometry = geojson["features"]?.arrayValue?.lazy.compactMap { $0["geometry"] }.first(where: isGeometry)
        case "Feature": geometry = isGeometry(geojson["geometry"]) ? geojson["geometry"] : nil
        default: geometry = isGeometry(geojson) ? geojson : nil
        }
        guard let geometry else { return error("'distance' expression needs to be an array with format ['Distance', GeoJSONObj].") }
        return ParsedExpression(.distance(GeoJSONShape(geometry)), type: .number)
    }
}
