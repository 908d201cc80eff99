import MapSimJSON

/// What the SDKs' tile layout reads of a layer for each feature, compiled: the filter, and for
/// symbols the text (`text-field`, `text-font`, `text-transform`), the icon (`icon-image`), and for
/// fills and lines their data-driven patterns. It decides which glyph ranges and images a tile needs.
public struct LayerLayout: Sendable, Equatable {
    public var filter: StyleFilter
    /// `text-field` (formatted), when the layer draws text.
    public var textField: StyleExpression?
    /// `text-font` (an array of font names); nil for the spec's default stack.
    public var textFont: StyleExpression?
    /// `text-transform`, when set.
    public var textTransform: StyleExpression?
    /// `icon-image`, when the layer draws icons.
    public var iconImage: StyleExpression?
    /// `fill-pattern`, `line-pattern` or `fill-extrusion-pattern`, when set.
    public var pattern: StyleExpression?
    /// Whether vertical forms of punctuation are needed too: point labels that may be written
    /// vertically, or labels along lines rotated with the map.
    public var verticalText: VerticalText
    /// Whether an expression reads the feature's geometry (`within`, `distance`).
    public private(set) var readsGeometry = false
    /// `visibility` given as an expression (of global state), when it is one.
    public var visibility: StyleExpression?
    /// The global state names whose change makes the SDKs reload the layer's source: those its
    /// layout, filter or visibility read, and those of a paint property that also reads features.
    public private(set) var reloadingStateNames: Set<String> = []
    /// Whether the layer reads global state anywhere: its filter, layout (visibility too) or paint.
    public private(set) var readsGlobalState = false

    /// The layer's layout and paint as written, which the compiled members come from.
    private let source: JSONValue

    /// When a symbol layer's text may be set vertically, and so needs vertical punctuation.
    public enum VerticalText: Sendable, Equatable {
        case never
        /// `text-writing-mode` includes `vertical` (point placement).
        case whenAllowed
        /// Line placement with `text-rotation-alignment: map`.
        case alongLines
    }

    /// A layer that reads nothing of its features (no filter, no text, no icon).
    public init() {
        filter = StyleFilter.none
        verticalText = .never
        source = .null
    }

    public static func == (lhs: LayerLayout, rhs: LayerLayout) -> Bool {
        lhs.source == rhs.source
    }

    /// Compiles what the layer `json` of type `kind` reads of features. A property that does not
    /// compile is left out, with a warning naming it, as the SDKs leave out what they cannot parse.
    /// The expressions are read in `flavor`'s language (Mapbox's has `config`, for one).
    static func compile(_ json: JSONObject, kind: StyleLayer.Kind, path: String, flavor: StyleSpecFlavor = .maplibre,
                        warnings: inout [String]) -> LayerLayout {
        var layout = LayerLayout(source: .object(json))
        let layoutJSON = json["layout"]?.objectValue ?? JSONObject()
        let paintJSON = json["paint"]?.objectValue ?? JSONObject()
        if let filter = json["filter"] {
            do {
                layout.filter = try StyleFilter(filter, flavor: flavor)
            } catch {
                warnings.append("\(path).filter: \(error); the layer draws nothing")
                layout.filter = StyleFilter.nothing
            }
        }
        func compile(_ group: String, _ name: String, from object: JSONObject) -> StyleExpression? {
            guard let value = object[name], let spec = LayerPropertySpecs.spec(kind: kind.rawValue, group: group, name: name) else { return nil }
            var expression = value
            // A string with {tokens} reads feature properties, as the SDKs read it.
            switch value {
            case .string(let text) where spec["tokens"] == .bool(true):
                expression = TokenReplacer.tokenExpression(text)
            case .array(let items) where !(items.first?.stringValue.map { ExpressionParser.isOperator($0, in: flavor) } ?? false):
                // A constant array, not an expression.
                expression = .array([.string("literal"), value])
            default:
                break
            }
            switch StyleExpression.compile(expression, propertySpec: spec, flavor: flavor) {
            case .success(let compiled):
                return compiled
            case .failure(let failure):
                warnings.append("\(path).\(group).\(name): \(failure); the property is ignored")
                return nil
            }
        }
        if case .array = layoutJSON["visibility"] { layout.visibility = compile("layout", "visibility", from: layoutJSON) }
        var names = Self.stateNames(in: .object(layoutJSON)).union(Self.stateNames(in: json["filter"] ?? .null))
        for (_, value) in paintJSON.members where Self.readsFeatures(value) { names.formUnion(Self.stateNames(in: value)) }
        layout.reloadingStateNames = names
        layout.readsGlobalState = !names.isEmpty || !Self.stateNames(in: .object(paintJSON)).isEmpty
        switch kind {
        case .symbol:
            layout.textField = compile("layout", "text-field", from: layoutJSON)
            layout.textFont = compile("layout", "text-font", from: layoutJSON)
            layout.textTransform = compile("layout", "text-transform", from: layoutJSON)
            layout.iconImage = compile("layout", "icon-image", from: layoutJSON)
            let placement = layoutJSON["symbol-placement"]?.stringValue ?? "point"
            let modes = layoutJSON["text-writing-mode"]?.arrayValue ?? []
            if placement == "point" && modes.contains(.string("vertical")) {
                layout.verticalText = .whenAllowed
            } else if placement != "point" && layoutJSON["text-rotation-alignment"]?.stringValue == "map" {
                layout.verticalText = .alongLines
            }
        case .fill:
            layout.pattern = compile("paint", "fill-pattern", from: paintJSON)
        case .line:
            layout.pattern = compile("paint", "line-pattern", from: paintJSON)
        case .fillExtrusion:
            layout.pattern = compile("paint", "fill-extrusion-pattern", from: paintJSON)
        default:
            break
        }
        layout.readsGeometry = [layout.filter.expression, layout.textField, layout.textFont, layout.textTransform, layout.iconImage, layout.pattern]
            .contains { $0?.readsGeometry ?? false }
        return layout
    }

    /// The names `["global-state", NAME]` reads anywhere in `value`.
    static func stateNames(in value: JSONValue) -> Set<String> {
        switch value {
        case .array(let items):
            if items.count == 2, items[0] == .string("global-state"), let name = items[1].stringValue { return [name] }
            return items.reduce(into: Set<String>()) { $0.formUnion(stateNames(in: $1)) }
        case .object(let object):
            return object.members.reduce(into: Set<String>()) { $0.formUnion(stateNames(in: $1.value)) }
        default:
            return []
        }
    }

    /// Whether a property value reads features (`get`, `has`, `id`, `properties`, `geometry-type`,
    /// `feature-state`): a data-driven value.
    static func readsFeatures(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items):
            if let name = items.first?.stringValue, ["get", "has", "id", "properties", "geometry-type", "feature-state"].contains(name) { return true }
            return items.contains(where: readsFeatures)
        case .object(let object):
            return object.members.contains { readsFeatures($0.value) }
        default:
            return false
        }
    }

    private init(source: JSONValue) {
        filter = StyleFilter.none
        verticalText = .never
        self.source = source
    }
}

/// The style spec's entries for layer properties (`type`, `property-type`, `expression`, `tokens`),
/// read from the generated reference.
enum LayerPropertySpecs {
    /// The entry of property `name` in `layout_KIND` or `paint_KIND`.
    static func spec(kind: String, group: String, name: String) -> JSONObject? {
        StyleValidator.parsedReference["\(group)_\(kind)"]?[name]?.objectValue
    }
}
