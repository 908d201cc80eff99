extension Style {
    /// The font stacks the style's text can use, sorted and without repeats, as MapLibre Native's
    /// offline download lists them: for every symbol layer with a `text-field` (shown or not), its
    /// constant `text-font`, every literal stack a data-driven `text-font` can produce, or the
    /// default stack when it has none.
    public var fontStacks: [[String]] {
        var stacks = Set<[String]>()
        for layer in layers where layer.kind == .symbol && layer.hasText {
            guard let font = layer.layout.textFont else {
                stacks.insert(StyleLayer.defaultTextFont)
                continue
            }
            for case .array(let names)? in font.possibleOutputs {
                stacks.insert(names.map(\.text))
            }
        }
        return stacks.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
