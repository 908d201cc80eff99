/// Decodes MapLibre Tiles (MLT), the column-oriented vector tile format, into the `VectorTile` the
/// MVT decoder gives for the same data: a vector source whose TileJSON says `"encoding": "mlt"`
/// decodes its tiles with `MLTTile.decode(_:)` where others use `VectorTile.decode(_:)`.
///
/// A tile is a sequence of blocks, each its size (a varint, the tag included), a tag (a varint)
/// and its bytes. Tag 1 is a feature table, which becomes a layer (`MLTLayerDecoder`); blocks
/// with other tags are skipped, as MapLibre GL JS skips them. Features keep the table's order;
/// their properties, the column order, without the columns a feature has no value in. Geometries
/// are given as the MVT decoder gives them: Multi types as several lines or rings of a point, line
/// or polygon feature, rings closed. Integers, 64-bit ones too, become JSON numbers, as MVT's do,
/// and floats are widened to doubles as `Float32Array` reads them in JavaScript.
public enum MLTTile {
    /// Decodes an uncompressed MLT tile; truncated or corrupt data, or an encoding the decoder
    /// does not know, gives a `LoadingError` naming the layer, column and stream.
    public static func decode(_ bytes: [UInt8]) throws(LoadingError) -> VectorTile {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            throw LoadingError.malformedResource("the tile is gzip-compressed; mapsim reads uncompressed tiles (serve them with Content-Encoding: gzip, or unzip them)")
        }
        var budget = MLTBudget(tileSize: bytes.count)
        var reader = MLTReader(bytes, range: 0..<bytes.count)
        var layers: [VectorTile.Layer] = []
        while !reader.isAtEnd {
            let table: Range<Int>?
            do throws(MLTFault) {
                let start = reader.position
                let block = try reader.take(Int(try reader.varint32("the size of the block at byte \(start)")), "the block")
                guard !block.isEmpty else { throw MLTFault("the block at byte \(start) is empty: it has no tag") }
                var blockReader = MLTReader(bytes, range: block)
                let tag = try blockReader.varint32("the tag of the block at byte \(start)")
                table = tag == 1 ? blockReader.position..<block.upperBound : nil
            } catch {
                throw LoadingError.malformedResource("MLT tile: \(error.message)")
            }
            if let table { layers.append(try MLTLayerDecoder.decode(bytes, range: table, index: layers.count, &budget)) }
        }
        return VectorTile(layers: layers)
    }
}
