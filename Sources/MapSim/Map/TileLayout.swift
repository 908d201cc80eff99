import MapSimJSON
import MapSimStyle

/// What laying out one tile needs, worked out as MapLibre Native's tile worker works it out: the
/// style layers of the source laid out at the tile's zoom (visible, within their zoom range), the
/// features of each that pass its filter, and of those the glyphs of every text section (after
/// `text-transform`, by UTF-16 unit, in the section's font stack or the layer's `text-font`) and the
/// images: icons, inline images of formatted text, and patterns of fills and lines.
struct TileLayout: Sendable, Equatable {
    /// The glyph ranges the tile's text needs.
    var glyphs: Set<GlyphRangeKey> = []
    /// The images the tile's symbols and patterns use.
    var images: Set<String> = []
    /// The images each style layer uses, by layer id.
    var imagesByLayer: [String: Set<String>] = [:]

    /// The 256 glyph ranges of the Basic Multilingual Plane a font stack needs, as bits.
    private struct RangeSet {
        var words = [UInt64](repeating: 0, count: 4)

        mutating func insert(_ unit: UInt16) {
            let range = Int(unit >> 8)
            words[range >> 6] |= 1 << UInt64(range & 63)
        }

        var starts: [Int] {
            (0..<256).filter { words[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }.map { $0 << 8 }
        }
    }

    init(content: TileContent, layers: [StyleLayer], zoom: Int, tile: CanonicalTileID, availableImages: Set<String>) {
        var ranges: [[String]: RangeSet] = [:]
        // The features as expressions see them, made once per source layer.
        var prepared: [String: [ExpressionFeature]] = [:]
        var base = ExpressionContext(zoom: Double(zoom), availableImages: availableImages, tile: CanonicalTile(z: tile.z, x: tile.x, y: tile.y))
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
                guard rules.filter.matches(base) else { continue }
                switch layer.kind {
                case .symbol:
                    addText(text, context: base, layer: layer.id, to: &ranges)
                    if let icon = rules.iconImage, let name = Self.imageName(icon, base) { use(name, in: layer.id) }
                case .fill, .line, .fillExtrusion:
                    guard let pattern = rules.pattern else { continue }
                    for offset in [-1.0, 0, 1] {
                        var shifted = base
                        shifted.zoom = Double(zoom) + offset
                        if let name = Self.imageName(pattern, shifted) { use(name, in: layer.id) }
                    }
                default:
                    break
                }
            }
        }
        for (fontStack, set) in ranges {
            for start in set.starts { glyphs.insert(GlyphRangeKey(fontStack: fontStack, start: start)) }
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

    private mutating func addText(_ rules: TextRules, context: ExpressionContext, layer: String, to ranges: inout [[String]: RangeSet]) {
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
            var set = ranges[fontStack] ?? RangeSet()
            if ArabicShaping.needsShaping(transformed) || vertical {
                for unit in ArabicShaping.shape(transformed) {
                    set.insert(unit)
                    if vertical, let upright = VerticalPunctuation.vertical(unit) { set.insert(upright) }
                }
            } else {
                for unit in transformed.utf16 { set.insert(unit) }
            }
            ranges[fontStack] = set
        }
    }
}
