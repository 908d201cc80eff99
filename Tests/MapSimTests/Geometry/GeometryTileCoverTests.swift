import Testing
@testable import MapSim
import MapSimStyle

@Suite("GeometryTileCover")
struct GeometryTileCoverTests {
    private func tiles(_ cover: GeometryTileCover) -> [String] {
        Array(cover).map(\.description)
    }

    private func p(_ longitude: Double, _ latitude: Double) -> LngLat {
        LngLat(longitude: longitude, latitude: latitude)
    }

    @Test func boundsCoverTheirTilesRowByRowFromTheNorth() {
        #expect(tiles(GeometryTileCover(bounds: .world, zoom: 0)) == ["0/0/0"])
        #expect(tiles(GeometryTileCover(bounds: .world, zoom: 1)) == ["1/0/0", "1/1/0", "1/0/1", "1/1/1"])
        // 1°×1° around Paris at zoom 10: columns and rows of the corners' tiles.
        let paris = GeometryTileCover(bounds: LngLatBounds(west: 2, south: 48.5, east: 3, north: 49.5), zoom: 10)
        let found = Array(paris)
        let columns = Set(found.map(\.x))
        let rows = Set(found.map(\.y))
        #expect(found.count == columns.count * rows.count && found.count == paris.count)
        #expect(columns == Set(517...520) && found.first?.y == rows.min())
    }

    @Test func anEdgeOnATileBoundaryTakesNoTileBeyondIt() {
        // 0°…90° east is x 2…3 of zoom 2: one column, not two.
        let cover = GeometryTileCover(bounds: LngLatBounds(west: 0, south: -10, east: 90, north: 10), zoom: 2)
        #expect(Set(Array(cover).map(\.x)) == [2])
    }

    @Test func aPointIsItsTileAndALineTheTilesItCrosses() {
        #expect(tiles(GeometryTileCover(geometry: .point(p(2.35, 48.85)), zoom: 10)) == ["10/518/352"])
        #expect(tiles(GeometryTileCover(geometry: .multiPoint([p(2.35, 48.85), p(-74, 40.7)]), zoom: 1)) == ["1/0/0", "1/1/0"])
        // A diagonal through the centre of zoom 1 crosses two of its four tiles.
        let diagonal = GeometryTileCover(geometry: .lineString([p(-170, 80), p(170, -80)]), zoom: 1)
        #expect(tiles(diagonal) == ["1/0/0", "1/1/1"])
        let box = GeometryTileCover(bounds: LngLatBounds(west: -170, south: -80, east: 170, north: 80), zoom: 4)
        let line = GeometryTileCover(geometry: .lineString([p(-170, 80), p(170, -80)]), zoom: 4)
        #expect(line.count < box.count / 4, "a line covers what it touches, not its bounding box")
    }

    @Test func aPolygonsHoleIsLeftOut() {
        let outer = [p(-60, -60), p(60, -60), p(60, 60), p(-60, 60), p(-60, -60)]
        let hole = [p(-40, -40), p(-40, 40), p(40, 40), p(40, -40), p(-40, -40)]
        let full = Set(Array(GeometryTileCover(geometry: .polygon([outer]), zoom: 4)))
        let ring = Set(Array(GeometryTileCover(geometry: .polygon([outer, hole]), zoom: 4)))
        #expect(ring.isStrictSubset(of: full))
        let centre = CanonicalTileID(z: 4, x: 8, y: 8)
        #expect(full.contains(centre) && !ring.contains(centre))
    }

    @Test func aMultiPolygonWithRowsBetweenItsPartsIsWalkedToTheEnd() {
        let north = [p(0, 60), p(10, 60), p(10, 70), p(0, 70), p(0, 60)]
        let south = [p(0, -70), p(10, -70), p(10, -60), p(0, -60), p(0, -70)]
        let both = Array(GeometryTileCover(geometry: .multiPolygon([[north], [south]]), zoom: 5))
        #expect(both.count == GeometryTileCover(geometry: .polygon([north]), zoom: 5).count + GeometryTileCover(geometry: .polygon([south]), zoom: 5).count)
        #expect(both.map(\.y) == both.map(\.y).sorted(), "row by row from the north")
        #expect(GeometryTileCover(geometry: .geometryCollection([.point(p(0, 0))]), zoom: 3).count == 0, "MapLibre covers nothing for a collection")
    }
}
