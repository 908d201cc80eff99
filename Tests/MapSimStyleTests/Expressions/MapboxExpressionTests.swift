import Testing
@testable import MapSimStyle
@testable import MapSimJSON

/// Mapbox's expression language where the loader uses it: `config` read from the context (the
/// style's own option, or another scope's), `hsl`, and the flavor carried through the public
/// compile entry points so that a Mapbox style's filters, layouts and paints compile.
@Suite("Expression evaluation, Mapbox")
struct MapboxExpressionTests {
    private let numberSpec = JSONObject([
        ("type", .string("number")), ("property-type", .string("data-driven")),
        ("expression", .object(JSONObject([("interpolated", .bool(true)), ("parameters", .array([.string("zoom"), .string("feature")]))]))),
    ])

    private func compile(_ text: String, spec: JSONObject? = nil, flavor: StyleSpecFlavor = .mapbox) throws -> Result<StyleExpression, ExpressionCompilationError> {
        StyleExpression.compile(try JSONParser.parse(text), propertySpec: spec, flavor: flavor)
    }

    private func evaluate(_ text: String, spec: JSONObject? = nil, config: JSONObject) throws -> ExpressionValue {
        let expression = try compile(text, spec: spec).get()
        var context = ExpressionContext(zoom: 10)
        context.config = config
        return try expression.evaluate(context)
    }

    @Test func configReadsTheStylesOwnOption() throws {
        let config = JSONObject([("width", .number(3)), ("label", .string("on"))])
        #expect(try evaluate(#"["config", "width"]"#, config: config) == .number(3))
        #expect(try evaluate(#"["config", "label"]"#, config: config) == .string("on"))
        #expect(try evaluate(#"["*", ["config", "width"], 2]"#, spec: numberSpec, config: config) == .number(6))
    }

    @Test func configWithAScopeReadsThatScopesKey() throws {
        let config = JSONObject([("width", .number(1)), ("width\u{1F}basemap", .number(5))])
        #expect(try evaluate(#"["config", "width", "basemap"]"#, config: config) == .number(5))
        #expect(try evaluate(#"["config", "width", "other"]"#, config: config) == .null)
    }

    @Test func aMissingOptionIsNull() throws {
        #expect(try evaluate(#"["config", "nothing"]"#, config: JSONObject()) == .null)
        #expect(try evaluate(#"["coalesce", ["config", "nothing"], 7]"#, config: JSONObject()) == .number(7))
    }

    @Test func configIsMapboxsOnly() throws {
        guard case .failure(let failure) = try compile(#"["config", "width"]"#, flavor: .maplibre) else {
            Issue.record("config compiled as MapLibre's")
            return
        }
        #expect(failure.errors.first?.message.hasPrefix("Unknown expression \"config\"") == true)
        guard case .failure = try compile(#"["config"]"#) else {
            Issue.record("config without a name compiled")
            return
        }
    }

    /// Each language's operators are found in one table of its own: a special form over a compound
    /// operator of the same name, Mapbox's current forms over both, `global-state` MapLibre's only.
    @Test func eachLanguageHasItsOwnOperatorsAndParsesEachByItsOwnRules() throws {
        let known: [(name: String, maplibre: Bool, mapboxGLJS: Bool, mapbox: Bool)] = [
            ("match", true, true, true), ("get", true, true, true), ("filter-==", true, true, true),
            ("global-state", true, false, false), ("config", false, true, true), ("split", true, false, true),
            ("join", true, false, false), ("elevation", true, false, false), ("hsl", false, true, true),
            ("to-hsla", false, false, true), ("at-interpolated", false, false, true), ("worldview", false, false, true),
            ("nothing", false, false, false),
        ]
        for entry in known {
            #expect(ExpressionParser.isOperator(entry.name, in: .maplibre) == entry.maplibre, "\(entry.name), MapLibre")
            #expect(ExpressionParser.isOperator(entry.name, in: .mapboxGLJS) == entry.mapboxGLJS, "\(entry.name), Mapbox GL JS")
            #expect(ExpressionParser.isOperator(entry.name, in: .mapbox) == entry.mapbox, "\(entry.name), Mapbox")
        }
        let context = ExpressionContext(zoom: 10, feature: ExpressionFeature(properties: JSONObject([("s", .string("a,b"))]), geometryType: "Point"))
        // `split`: MapLibre's compound operator, Mapbox's current form; GL JS 3.0.1 reads the array as literals.
        let split = #"["split", ["get", "s"], ","]"#
        #expect(try compile(split, flavor: .maplibre).get().evaluate(context) == .array([.string("a"), .string("b")]))
        #expect(try compile(split, flavor: .mapbox).get().evaluate(context) == .array([.string("a"), .string("b")]))
        #expect(try compile(split, flavor: .mapboxGLJS).get().evaluate(context) == .array([.string("split"), .string("a,b"), .string(",")]))
        // A compound operator resolves to what it evaluates as; an unknown name is named.
        #expect(try compile(#"["+", ["length", ["get", "s"]], 1]"#, spec: numberSpec, flavor: .maplibre).get().evaluate(context) == .number(4))
        guard case .failure(let failure) = try compile(#"["nothing", 1]"#, flavor: .maplibre) else {
            Issue.record("an unknown operator compiled")
            return
        }
        #expect(failure.errors.first?.message == #"Unknown expression "nothing". If you wanted a literal array, use ["literal", [...]]."#)
    }

    @Test func aNullOptionFailsTheFilter() throws {
        let filter = try StyleFilter(try JSONParser.parse(#"["config", "show"]"#), flavor: .mapbox)
        let compared = try StyleFilter(try JSONParser.parse(#"["==", ["config", "kind", "basemap"], "park"]"#), flavor: .mapbox)
        var context = ExpressionContext(zoom: 10, feature: ExpressionFeature(properties: JSONObject(), geometryType: "Point"))
        #expect(!filter.matches(context))
        #expect(!compared.matches(context))
        context.config = JSONObject([("show", .bool(true)), ("kind\u{1F}basemap", .string("park"))])
        #expect(filter.matches(context))
        #expect(compared.matches(context))
        context.config = JSONObject([("show", .null)])
        #expect(!filter.matches(context))
    }

    @Test func hslMakesColors() throws {
        let red = try evaluate(#"["hsl", 0, 100, 50]"#, config: JSONObject())
        #expect(red == .color(RGBAColor(straight: 1, 0, 0, alpha: 1)))
        let faded = try evaluate(#"["hsla", 120, 100, 50, 0.5]"#, config: JSONObject())
        guard case .color(let color) = faded else {
            Issue.record("hsla made no color")
            return
        }
        #expect(color.alpha == 0.5)
    }

    @Test func aMapboxLayerCompilesWithItsConfig() throws {
        let style = try Style.parse(#"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": []}"#)
        let json = try JSONParser.parse(#"""
            {"id": "labels", "type": "symbol", "source": "s",
             "filter": ["config", "showLabels"],
             "layout": {"text-field": ["config", "title"], "icon-image": ["case", ["config", "showIcons"], "pin", ""]}}
            """#)
        let layer = try StyleLayer.parse(json, sources: style.sources, flavor: .mapbox)
        var context = ExpressionContext(zoom: 10, feature: ExpressionFeature(properties: JSONObject(), geometryType: "Point"))
        context.config = JSONObject([("showLabels", .bool(true)), ("title", .string("Hi")), ("showIcons", .bool(true))])
        #expect(layer.layout.filter.matches(context))
        #expect(try layer.layout.textField?.evaluate(context).text == "Hi")
        #expect(try layer.layout.iconImage?.evaluate(context) == .image(ResolvedImage(name: "pin", available: false)))
        // As MapLibre's, the same layer's expressions do not compile: the filter passes nothing.
        let maplibre = try StyleLayer.parse(json, sources: style.sources)
        #expect(!maplibre.layout.filter.matches(context))
        #expect(maplibre.layout.textField == nil)
    }
}
