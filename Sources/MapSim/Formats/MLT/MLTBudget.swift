/// How many values one tile may decode in all: sixteen per byte of the tile, and at least 65,536.
///
/// Most encodings cannot claim more values than they have bytes, and the decoder checks that
/// before it allocates; run-length and FastPFOR streams, byte-RLE bitmaps and vertex dictionaries
/// can, legitimately. The budget bounds what they may expand to, so that a few bytes that claim a
/// billion values are refused before anything is allocated. Real tiles decode fewer than three
/// values per byte.
struct MLTBudget {
    /// The values that may still be decoded.
    private(set) var remaining: Int

    /// The budget of a tile of `tileSize` bytes.
    init(tileSize: Int) {
        remaining = 65_536 + 16 * tileSize
    }

    /// Takes `count` values from the budget, or refuses: `what` names what would decode them.
    mutating func spend(_ count: Int, on what: @autoclosure () -> String) throws(MLTFault) {
        guard count >= 0, count <= remaining else {
            throw MLTFault("\(what()) would decode \(count) values, more than a tile of this size may hold")
        }
        remaining -= count
    }
}
