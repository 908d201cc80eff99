import MapSim

extension Resource.Kind {
    /// MapLibre Native's `Resource::Kind` number, as `resources.kind` holds it.
    var mapLibreNumber: Int {
        switch self {
        case .unknown, .model: 0
        case .style: 1
        case .source: 2
        case .tile: 3
        case .glyphs: 4
        case .spriteImage: 5
        case .spriteJSON: 6
        case .image: 7
        }
    }

    /// The kind of MapLibre's number `number`; nil for a number it does not have.
    init?(mapLibreNumber number: Int) {
        guard let kind = Self.allCases.first(where: { $0.mapLibreNumber == number }) else { return nil }
        self = kind
    }
}

extension Resource {
    /// The `Resource::Kind` number MapLibre stores this resource under: an archive's byte range is a
    /// source whatever it holds, as MapLibre's PMTiles source reads every range.
    var storedKindNumber: Int {
        dataRange == nil ? kind.mapLibreNumber : Kind.source.mapLibreNumber
    }
}
