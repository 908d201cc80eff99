/// An offline region as the database holds it: its id (`regions.id`), its definition — decoded, or
/// why MapLibre Native could not decode it — and the app's metadata bytes (`regions.description`).
public struct OfflineRegion: Sendable, Equatable {
    /// The region's id.
    public var id: Int64
    /// The definition as stored.
    public var encodedDefinition: String
    /// The definition, or why it cannot be decoded.
    public var definition: Result<OfflineRegionDefinition, OfflineRegionDefinitionError>
    /// The app's bytes describing the region, if any.
    public var metadata: [UInt8]?

    /// A region as read from the database.
    public init(id: Int64, encodedDefinition: String, metadata: [UInt8]?) {
        self.id = id
        self.encodedDefinition = encodedDefinition
        definition = Result { () throws(OfflineRegionDefinitionError) in try OfflineRegionDefinition(decoding: encodedDefinition) }
        self.metadata = metadata
    }

    /// The metadata as text when it is UTF-8, else nil.
    public var metadataText: String? {
        metadata.flatMap { String(validating: $0, as: UTF8.self) }
    }
}
