import MapSimJSON

/// A layer of a style, with what loading and rendering need to know about it.
public struct StyleLayer: Sendable, Equatable {
    /// The layer types of the style spec.
    public enum Kind: String, Sendable, CaseIterable {
        case background, fill, line, symbol, circle, heatmap
        case fillExtrusion = "fill-extrusion"
        case raster, hillshade, sky
        case colorRelief = "color-relief"
        /// Mapbox's: a place in the layer order that imported styles' layers fill (`slot`).
        case slot
        /// Mapbox's: 3D models.
        case model
        /// Mapbox's: removes other layers' features inside its polygons.
        case clip
        /// Mapbox's: particles moved by a `raster-array` source.
        case rasterParticle = "raster-particle"
        /// Mapbox's: buildings drawn from footprints.
        case building

        /// Whether only Mapbox's style spec has the type.
        public var isMapboxOnly: Bool {
            switch self {
            case .slot, .model, .clip, .rasterParticle, .building: true
            default: false
            }
        }

        /// Whether a style read by `flavor`'s style spec may have the type. Both of Mapbox's read
        /// every Mapbox type (the loader takes a `clip` layer in a style for Mapbox GL JS 3.0.1 as
        /// the SDK does; only `validate --engine mapbox-gl-js` refuses it, as 3.0.1's validator does).
        public func isKnown(to flavor: StyleSpecFlavor) -> Bool {
            switch flavor {
            case .maplibre: !isMapboxOnly
            case .mapbox, .mapboxGLJS: self != .colorRelief
            }
        }

        /// Whether a layer of the type draws no source's data.
        public var hasNoSource: Bool {
            self == .background || self == .sky || self == .slot
        }
    }

    /// The layer's id, unique in the style.
    public var id: String
    /// The layer's type.
    public var kind: Kind
    /// The id of the source it draws (none for background and sky).
    public var source: String?
    /// The layer of the vector tile it draws.
    public var sourceLayer: String?
    /// The zoom from which the layer is shown.
    public var minZoom: Double?
    /// The zoom from which the layer is hidden.
    public var maxZoom: Double?
    /// Whether the layer is shown (`layout.visibility`).
    public var isVisible: Bool
    /// The constant `icon-image` of a symbol layer.
    public var iconImage: String?
    /// The constant font stack of a symbol layer's text (the default stack when `text-font` is data-driven).
    public var textFont: [String]
    /// What the layer reads of each feature: filter, text, fonts, icons and patterns, compiled.
    public var layout: LayerLayout
    /// The `raster-fade-duration` of a raster layer, in milliseconds.
    public var rasterFadeDuration: Int64
    /// The slot the layer goes in (Mapbox's `slot`): the place a `slot` layer of an imported style keeps.
    public var slot: String?

    /// The default font stack of the style spec.
    public static let defaultTextFont = ["Open Sans Regular", "Arial Unicode MS Regular"]

    /// A layer of `kind`.
    public init(id: String, kind: Kind, source: String? = nil, sourceLayer: String? = nil, minZoom: Double? = nil, maxZoom: Double? = nil,
                isVisible: Bool = true, iconImage: String? = nil, textFont: [String] = StyleLayer.defaultTextFont,
                layout: LayerLayout = LayerLayout(), rasterFadeDuration: Int64 = 300) {
        self.id = id
        self.kind = kind
        self.source = source
        self.sourceLayer = sourceLayer
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.isVisible = isVisible
        self.iconImage = iconImage
        self.textFont = textFont
        self.layout = layout
        self.rasterFadeDuration = rasterFadeDuration
    }

    /// Whether the layer is drawn at camera zoom `zoom`: visible, at or above minzoom and below maxzoom.
    public func isShown(atZoom zoom: Double) -> Bool {
        isVisible && zoom >= (minZoom ?? 0) && zoom < (maxZoom ?? .infinity)
    }

    /// Whether the layer draws text.
    public var hasText: Bool { layout.textField != nil }

    /// The layer with its `visibility` expression, if it has one, read with `globalState` and the
    /// `config` of its style.
    public func resolvingVisibility(globalState: JSONObject, config: JSONObject = JSONObject()) -> StyleLayer {
        guard let expression = layout.visibility else { return self }
        var layer = self
        var context = ExpressionContext(globalState: globalState)
        context.config = config
        let value = try? expression.evaluate(context)
        layer.isVisible = value.map { expression.outputJSON($0) } != .string("none")
        return layer
    }

    /// Whether the SDKs lay the layer out in a tile of (overscaled) zoom `z`: visible, and `z` at
    /// or above its minzoom rounded down and below its maxzoom rounded up.
    public func isLaidOut(atTileZoom z: Int) -> Bool {
        isVisible && Double(z) >= (minZoom ?? 0).rounded(.down) && Double(z) < (maxZoom ?? .infinity).rounded(.up)
    }
}
