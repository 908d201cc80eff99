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
}
