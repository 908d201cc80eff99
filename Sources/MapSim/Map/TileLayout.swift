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

    init(content: TileContent, layers: [StyleLayer], zoom: Int, tile: CanonicalTileID, availableImages: Set<String>) {
        var starts: [[String]: Set<Int>] = [:]
        for layer in layers where layer.isLaidOut(atTileZoom: zoom) {
            guard let features = content.features(in: layer.sourceLayer)?.features, !features.isEmpty else { continue }
            let rules = layer.layout
            let needsGeometry = rules.readsGeometry
            var context = ExpressionContext(zoom: Double(zoom), availableImages: availableImages,
                                            tile: CanonicalTile(z: tile.z, x: tile.x, y: tile.y))
            for feature in features {
                context.feature = ExpressionFeature(properties: feature.properties, id: feature.id, geometryType: feature.geometryType.name,
                                                    geometry: needsGeometry ? feature.geometry(extent: GeoJSONTiler.extent) : nil)
                guard rules.filter.matches(context) else { continue }
                switch layer.kind {
                case .symbol:
                    addText(rules, context: context, defaultFont: layer.textFont, layer: layer.id, to: &starts)
                    if let icon = rules.iconImage, let name = Self.imageName(icon, context) { use(name, in: layer.id) }
                case .fill, .line, .fillExtrusion:
                    guard let pattern = rules.pattern else { continue }
                    for offset in [-1.0, 0, 1] {
                        var shifted = context
                        shifted.zoom = Double(zoom) + offset
                        if let name = Self.imageName(pattern, shifted) { use(name, in: layer.id) }
                    }
                default:
                    break
                }
            }
        }
        for (fontStack, set) in starts {
            for start in set { glyphs.insert(GlyphRangeKey(fontStack: fontStack, start: start)) }
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

    private mutating func addText(_ rules: LayerLayout, context: ExpressionContext, defaultFont: [String], layer: String,
                                  to starts: inout [[String]: Set<Int>]) {
        guard let field = rules.textField, case .formatted(let text)? = try? field.evaluate(context) else { return }
        var transform = "none"
        if let expression = rules.textTransform, case .string(let value)? = try? expression.evaluate(context) { transform = value }
        var baseFont = defaultFont
        if let expression = rules.textFont, case .array(let names)? = try? expression.evaluate(context) { baseFont = names.map(\.text) }
        let vertical = rules.verticalText != .never && text.sections.contains { VerticalPunctuation.allowsVerticalWritingMode($0.text) }
        for section in text.sections {
            if let image = section.image {
                if !image.name.isEmpty { use(image.name, in: layer) }
                continue
            }
            let transformed = transform == "uppercase" ? section.text.uppercased() : transform == "lowercase" ? section.text.lowercased() : section.text
            let fontStack = section.fontStack.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? baseFont
            for unit in ArabicShaping.shape(transformed) {
                starts[fontStack, default: []].insert(Int(unit) & ~0xFF)
                if vertical, let upright = VerticalPunctuation.vertical(unit) { starts[fontStack, default: []].insert(Int(upright) & ~0xFF) }
            }
        }
    }
}
