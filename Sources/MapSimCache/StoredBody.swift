/// A body as stored: the bytes (nil for no content) and whether they are compressed.
struct StoredBody: Sendable {
    var data: [UInt8]?
    var compressed: Bool
}
