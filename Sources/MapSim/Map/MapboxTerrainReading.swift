/// What Mapbox GL JS 3.0.1's terrain has read for the covers of one camera: the quadtrees of the DEM
/// tiles built so far, the centre's altitude once sampled (once: it is not refined as finer DEM
/// tiles arrive), the average elevation in view its fog samples the frame after, and the terrain
/// the covers saw after the data events counted.
struct MapboxTerrainReading: Sendable {
    /// The camera read for.
    var camera: Camera
    /// The centre's altitude, exaggerated metres; nil until a DEM tile covers the centre.
    var centerAltitude: Double?
    /// The average elevation of the ground in view (with fog), nil until sampled.
    var averageElevation: Double?
    /// The average is to be sampled at the next frame: the one after the centre's altitude was.
    var averageDue = false
    /// The quadtree of each DEM tile read so far (kept across cameras).
    var trees: [CanonicalTileID: MapboxDEMTree] = [:]
    /// The load's data events when the covers last read the terrain: Mapbox covers again only after another.
    var dataEventsSeen = -1
    /// The terrain the covers saw then.
    var terrain: CoverTerrain
}
