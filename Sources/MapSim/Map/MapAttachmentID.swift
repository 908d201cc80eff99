/// An attachment of a map, as `Map.attach(_:)` returns it: the key to send it inputs and read it.
public struct MapAttachmentID<Attachment: MapAttachment>: Sendable, Hashable {
    /// Its place in the order of attaching.
    let place: Int
}
