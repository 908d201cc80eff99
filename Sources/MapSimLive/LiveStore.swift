/// The newest state of every item and domain, as the live updates told it: delivery order is not
/// guaranteed, so an update older than the one already held never overwrites it.
public struct LiveStore: Sendable {
    /// An item's domain: what one update's topic and id name.
    public struct Key: Sendable, Hashable {
        public var id: String
        public var domainType: String
    }

    private var newest: [Key: LiveUpdate] = [:]

    public init() {}

    /// Takes `update` if it is newer than what is held for its item and domain (an equal timestamp
    /// replaces it: the later delivery wins a tie, unless it is the same update delivered twice);
    /// returns whether it did.
    @discardableResult
    public mutating func apply(_ update: LiveUpdate) -> Bool {
        let key = Key(id: update.id, domainType: update.topic.domainType)
        if let held = newest[key], held.timestamp > update.timestamp || held == update { return false }
        newest[key] = update
        return true
    }

    /// The newest update of an item's domain.
    public func update(id: String, domainType: String) -> LiveUpdate? {
        newest[Key(id: id, domainType: domainType)]
    }

    /// How many item domains are held.
    public var count: Int { newest.count }
}
