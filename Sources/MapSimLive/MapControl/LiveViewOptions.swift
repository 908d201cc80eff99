/// What `enableLiveData` is asked to follow: the domains, where the bound source's locations are,
/// and the floor shown (`mapsim load --live-domain`, `--location-fields`, `--floor`).
public struct LiveViewOptions: Sendable, Equatable {
    /// The domain types whose live data follows the view, in order.
    public var domains: [String]
    /// Which feature properties give a location's topic levels.
    public var fields: LiveLocationFields
    /// The floor shown; nil for the lowest floor of the locations.
    public var floor: String?

    public init(domains: [String], fields: LiveLocationFields = .init(), floor: String? = nil) {
        self.domains = domains
        self.fields = fields
        self.floor = floor
    }
}
