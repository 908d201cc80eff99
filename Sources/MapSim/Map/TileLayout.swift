import MapSimJSON
import MapSimStyle

/// What laying out one tile needs, worked out as MapLibre Native's tile worker works it out: the
/// style layers of the source laid out at the tile's zoom (visible, within their zoom range), the
/// features of each that pass its filter, and of those the glyphs of every text section (after
/// `text-transform`, in the section's font stack or the layer's `text-font`) and the images: icons,
/// inline images of formatted text, and patterns of fills and lines. Which glyphs are the engine's
/// rules: MapLibre Native's by UTF-16 unit with Arabic shaped, GL JS's by code point as written,
/// without those drawn with a local ideograph font.
struct TileLayout: Sendable, Equatable {
    /// The glyph ranges the tile's text needs.
    var glyphs: Set<GlyphRangeKey> = []
    /// The code points of each range the tile draws, when the engine rejects some glyphs (GL JS
    /// fails a tile that draws a glyph without its size); empty otherwise.
    var codePoints: [GlyphRangeKey: Set<UInt32>] = [:]
    /// The images the tile's symbols and patterns use.
    var images: Set<String> = []
    /// The images each style layer uses, by layer id.
    var imagesByLayer: [String: Set<String>] = [:]

    /// The glyph ranges a font stack needs: the Basic Multilingual Plane's 256 as bits, those of the
    /// astral planes (code points, GL JS) as a set.
    private struct RangeSet {
        var words = [UInt64](repeating: 0, count: 4)
        var astral: Set<Int> = []
        /// The code points of each range, when they are kept.
        var codePoints: [Int: Set<UInt32>]?

        mutating func insert(_ codePoint: UInt32) {
            let range = Int(codePoint >> 8)
            codePoints?[range << 8, default: []].insert(codePoint)
            if range < 256 {
                words[range >> 6] |= 1 << UInt64(range & 63)
            } else {
                astral.insert(range)
            }
        }

        var starts: [Int] {
            (0..<256).filter { words[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }.map { $0 << 8 } + astral.sorted().map { $0 << 8 }
        }
    }

    /// The layout of `layers` over `content`. The layers are those of one style, `scope` (a source
    /// and the layers that draw it are in one style): the images they name are that style's, and
    /// `["config", NAME]` reads its `config` — in filters too unless `configInFilters` is false
    /// (Mapbox GL JS 3.0.1 compiles filters without it).
    init(content: TileContent, layers: [StyleLayer], zoom: Int, tile: CanonicalTileID, globalState: JSONObject = JSONObject(),
         availableImages: Set<String>, glyphRules: Engine.GlyphRules = Engine.maplibreNative.glyphs,
         scope: StyleScope = .root, config: JSONObject = JSONObject(), configInFilters: Bool = true) {
        var ranges: [[String]: RangeSet] = [:]
        // The features as expressions see them, made once per source layer.
        var prepared: [String: [ExpressionFeature]] = [:]
        var base = ExpressionContext(zoom: Double(zoom), globalState: globalState, availableImages: availableImages,
                                     tile: CanonicalTile(z: tile.z, x: tile.x, y: tile.y))
        base.config = config
        var filterContext = base
        if !configInFilters { filterContext.config = JSONObject() }
        for layer in layers where layer.isLaidOut(atTileZoom: zoom) {
            let rules = layer.layout
            // Only text, icons and patterns need anything: other layers' buckets request nothing.
            guard rules.textField != nil || rules.iconImage != nil || rules.pattern != nil,
                  let features = content.features(in: layer.sourceLayer)?.features, !features.isEmpty else { continue }
            let readsGeometry = rules.readsGeometry
            let key = (layer.sourceLayer ?? "") + (readsGeometry ? "\u{0}geometry" : "")
            let expressionFeatures = prepared[key] ?? features.map { feature in
                ExpressionFeature(properties: feature.properties, id: feature.id, geometryType: feature.geometryType.name,
                                  geometry: readsGeometry ? feature.geometry(extent: GeoJSONTiler.extent) : nil)
            }
            prepared[key] = expressionFeatures
            base.feature = nil
            let text = TextRules(rules, defaultFont: layer.textFont, constantContext: base)
            for feature in expressionFeatures {
                base.feature = feature
                filterContext.feature = feature
                guard rules.filter.matches(filterContext) else { continue }
                switch layer.kind {
                case .symbol:
                    addText(text, context: base, layer: layer.id, rules: glyphRules, to: &ranges)
                    if let icon = rules.iconImage, let name = Self.imageName(icon, base) { use(scope.qualify(name), in: layer.id) }
                case .fill, .line, .fillExtrusion:
                    guard let pattern = rules.pattern else { continue }
                    for offset in [-1.0, 0, 1] {
                        var shifted = base
                        shifted.zoom = Double(zoom) + offset
                        if let name = Self.imageName(pattern, shifted) { use(scope.qualify(name), in: layer.id) }
                    }
                default:
                    break
                }
            }
        }
        for (fontStack, set) in ranges {
            for start in set.starts { glyphs.insert(GlyphRangeKey(fontStack: fontStack, start: start)) }
            for (start, points) in set.codePoints ?? [:] { codePoints[GlyphRangeKey(fontStack: fontStack, start: start)] = points }
        }
    }

    /// A symbol layer's text properties, with those that do not depend on the feature evaluated once.
    private struct TextRules {
        var field: StyleExpression?
        var transform: StyleExpression?
        var constantTransform: String
        var font: StyleExpression?
        var constantFont: [String]
        var vertical: Bool

        init(_ rules: LayerLayout, defaultFont: [String], constantContext: ExpressionContext) {
            field = rules.textField
            vertical = rules.verticalText != .never
            constantTransform = "none"
            constantFont = defaultFont
            if let expression = rules.textTransform {
                if expression.isFeatureConstant {
                    if case .string(let value)? = try? expression.evaluate(constantContext) { constantTransform = value }
                } else {
                    transform = expression
                }
            }
            if let expression = rules.textFont {
                if expression.isFeatureConstant {
                    if case .array(let names)? = try? expression.evaluate(constantContext) { constantFont = names.map(\.text) }
                } else {
                    font = expression
                }
            }
        }
    }

    private mutating func use(_ image: String, in layer: String) {
        images.insert(image)
        imagesByLayer[layer, default: []].insert(image)
    }

    /// The name of the image an expression picks for a feature, or nil for none.
    private static func imageName(_ expression: StyleExpression, _ context: ExpressionContext) -> String? {
        switch try? expression.evaluate(context) {
        case .image(let image)?: image.name.isEmpty ? nil : image.name
        case .string(let name)?: name.isEmpty ? nil : name
        default: nil
        }
    }

    private mutating func addText(_ rules: TextRules, context: ExpressionContext, layer: String, rules glyphRules: Engine.GlyphRules,
                                  to ranges: inout [[String]: RangeSet]) {
        guard let field = rules.field, case .formatted(let text)? = try? field.evaluate(context) else { return }
        var transform = rules.constantTransform
        if let expression = rules.transform, case .string(let value)? = try? expression.evaluate(context) { transform = value }
        var baseFont = rules.constantFont
        if let expression = rules.font, case .array(let names)? = try? expression.evaluate(context) { baseFont = names.map(\.text) }
        let vertical = rules.vertical && text.sections.contains { VerticalPunctuation.allowsVerticalWritingMode($0.text) }
        for section in text.sections {
            if let image = section.image {
                if !image.name.isEmpty { use(image.name, in: layer) }
                continue
            }
            let transformed = transform == "uppercase" ? section.text.uppercased() : transform == "lowercase" ? section.text.lowercased() : section.text
            let fontStack = section.fontStack.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? baseFont
            var set = ranges[fontStack] ?? RangeSet(codePoints: glyphRules.rejectsGlyphsWithoutSize ? [:] : nil)
            // A character drawn with a local font needs no range.
            func need(_ codePoint: UInt32) {
                if glyphRules.localIdeographs?.drawsLocally(codePoint) != true { set.insert(codePoint) }
            }
            if glyphRules.byCodePoint {
                for scalar in transformed.unicodeScalars {
                    need(scalar.value)
                    if vertical, scalar.value <= 0xFFFF, let upright = VerticalPunctuation.vertical(UInt16(scalar.value)) { need(UInt32(upright)) }
                }
            } else if (glyphRules.shapesArabic && ArabicShaping.needsShaping(transformed)) || vertical {
                for unit in glyphRules.shapesArabic ? ArabicShaping.shape(transformed) : Array(transformed.utf16) {
                    need(UInt32(unit))
                    if vertical, let upright = VerticalPunctuation.vertical(unit) { need(UInt32(upright)) }
                }
            } else {
                for unit in transformed.utf16 { need(UInt32(unit)) }
            }
            ranges[fontStack] = set
        }
    }
}
