extension Style {
    /// The style with everything it declares named in `scope` (`StyleScope.qualify`): its sources,
    /// its layers and the sources they draw, its terrain's source. Slot names are not scoped: a
    /// layer's `slot` names a slot of any style loaded before it.
    public func scoped(_ scope: StyleScope) -> Style {
        guard !scope.isRoot else { return self }
        var style = self
        for index in style.sources.indices { style.sources[index].id = scope.qualify(style.sources[index].id) }
        for index in style.layers.indices {
            style.layers[index].id = scope.qualify(style.layers[index].id)
            style.layers[index].source = style.layers[index].source.map(scope.qualify)
        }
        if let terrain = style.terrain { style.terrain?.source = scope.qualify(terrain.source) }
        return style
    }

    /// Whether a layer draws text (`text-field`): a Mapbox style that does needs a `glyphs` URL or
    /// `imports`, else Mapbox GL JS refuses it; the message names the first such layer. GL JS
    /// validates a style's inline imports (`data`) with it, so a layer of one of those is named by
    /// its path from this style (`imports[1].data.layers[0]…`), and refuses this style too.
    public var textWithoutGlyphs: String? {
        if glyphs == nil, !declaresImports, let index = layers.firstIndex(where: \.hasText) {
            return "layers[\(index)].layout.text-field: use of \"text-field\" requires a style \"glyphs\" property"
        }
        for (index, entry) in imports.enumerated() {
            guard let data = entry.data, let style = try? Style.parse(data, flavor: .mapbox), let refusal = style.textWithoutGlyphs else { continue }
            return "imports[\(index)].data.\(refusal)"
        }
        return nil
    }
}
