import Foundation

/// The flat map's tiles (`MercatorCoveringTilesDetailsProvider`): boxes from the tile's square to
/// the elevation range under it, Euclidean distances, world copies kept.
struct MercatorCoverDetails: CoverDetailsProvider {
    let allowsWorldCopies = true

    /// Variable zoom with terrain, or past the pitch where the view reaches the horizon: past 60° at
    /// the default field of view (`78.5 − fov/2`, clamped to 0...60).
    func allowsVariableZoom(camera: CoverCamera, coveringZoom: Int, terrain: CoverTerrain?) -> Bool {
        // GL JS weighs the field of view by the roll (fov·(|cos roll|·h + |sin roll|·w)/h); with no
        // roll that is fov·h/h, kept so for its last bit.
        let fieldOfView = camera.fieldOfViewDegrees * camera.height / camera.height
        let limit = min(max(78.5 - fieldOfView / 2, 0), 60)
        return terrain != nil || camera.pitch > limit
    }

    func volume(z: Int, x: Int, y: Int, wrap: Int, elevation: Double, terrain: CoverTerrain?) -> AxisAlignedBox {
        AxisAlignedBox(tileZ: z, x: x, y: y, wrap: wrap, heights: CoverTerrain.elevationRange(of: terrain, z: z, x: x, y: y, elevation: elevation))
    }

    func distance(fromX x: Double, y: Double, toTileZ z: Int, x tileX: Int, y tileY: Int, volume: AxisAlignedBox) -> Double {
        hypot(volume.distanceX(from: x), volume.distanceY(from: y))
    }

    func wrap(center: Vector3, z: Int, x: Int, wrap: Int) -> Int { wrap }
}
