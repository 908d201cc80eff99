import MapSim

/// MapsIndoors' `enableLiveData(domainType)` as a pure state machine: it keeps the live-data
/// manager's subscriptions in step with what the map shows, beside the application's own.
///
/// - `enable` / `disable` a domain; each enabled domain's criteria are worked out by `LiveViewRule`
///   when the map settles after a change (the executor feeds `settled` once the map reached
///   map-idle after a camera, view or floor change, or after `enable`): criteria newly needed are
///   subscribed, then those no longer needed unsubscribed (in that order, so the connection stays
///   open). A view that moved and came back before settling changes nothing.
/// - The application's `subscribe` / `unsubscribe` go through it too: a criteria wanted by both is
///   subscribed once, and stays until neither wants it.
/// - A criteria the broker refused is never asked for again while its domain stays enabled
///   (MapsIndoors never retries a subscription error).
public struct LiveViewFollower: StateMachine {
    /// What happens to the follower.
    public enum Input: Sendable {
        /// Follow the view for this domain.
        case enable(domain: String)
        /// Stop following it: its criteria are unsubscribed.
        case disable(domain: String)
        /// The map settled: these are the locations of the bound source, and what the map shows.
        case settled(locations: [LiveLocation], view: LiveView)
        /// The application subscribes to criteria of its own.
        case subscribe(TopicCriteria)
        /// The application unsubscribes from criteria of its own.
        case unsubscribe(TopicCriteria)
        /// The broker refused a subscription.
        case refused(TopicCriteria)
        /// What the map shows changed (camera, view or floor): the next settle works the criteria out again.
        case viewChanged
    }

    /// What the manager is asked.
    public enum Action: Sendable, Equatable {
        case subscribe(TopicCriteria)
        case unsubscribe(TopicCriteria)
    }

    /// The domains followed, in the order enabled.
    public private(set) var domains: [String] = []
    /// What the view needs now, by domain.
    public private(set) var viewCriteria: [String: [TopicCriteria]] = [:]
    /// What the application asked for.
    public private(set) var applicationCriteria: [TopicCriteria] = []
    /// Whether a change waits for the map to settle.
    public private(set) var isWaitingToSettle = false
    private var refused: Set<TopicCriteria> = []

    public init() {}

    public mutating func handle(_ input: Input, at now: SimTime) -> [Action] {
        switch input {
        case .enable(let domain):
            guard !domains.contains(domain) else { return [] }
            domains.append(domain)
            isWaitingToSettle = true
            return []
        case .disable(let domain):
            guard let index = domains.firstIndex(of: domain) else { return [] }
            let before = wanted
            domains.remove(at: index)
            viewCriteria[domain] = nil
            refused = refused.filter { $0.levels[6] != domain }
            if domains.isEmpty { isWaitingToSettle = false }
            return changes(from: before)
        case .settled(let locations, let view):
            isWaitingToSettle = false
            let before = wanted
            for domain in domains {
                viewCriteria[domain] = LiveViewRule.criteria(for: locations, in: view, domain: domain).filter { !refused.contains($0) }
            }
            return changes(from: before)
        case .subscribe(let criteria):
            let before = wanted
            if !applicationCriteria.contains(criteria) { applicationCriteria.append(criteria) }
            // Already wanted by the view: nothing to ask, the subscription is shared.
            return before.contains(criteria) ? [] : [.subscribe(criteria)]
        case .unsubscribe(let criteria):
            guard let index = applicationCriteria.firstIndex(of: criteria) else {
                // Not the application's: the manager says so (unless the view holds it).
                return wanted.contains(criteria) ? [] : [.unsubscribe(criteria)]
            }
            applicationCriteria.remove(at: index)
            return wanted.contains(criteria) ? [] : [.unsubscribe(criteria)]
        case .viewChanged:
            if !domains.isEmpty { isWaitingToSettle = true }
            return []
        case .refused(let criteria):
            applicationCriteria.removeAll { $0 == criteria }
            for domain in domains where viewCriteria[domain]?.contains(criteria) == true {
                refused.insert(criteria)
                viewCriteria[domain]?.removeAll { $0 == criteria }
            }
            return []
        }
    }

    /// Every criteria wanted, the application's first, each once.
    public var wanted: [TopicCriteria] {
        var all = applicationCriteria
        for domain in domains {
            for criteria in viewCriteria[domain] ?? [] where !all.contains(criteria) { all.append(criteria) }
        }
        return all
    }

    private func changes(from before: [TopicCriteria]) -> [Action] {
        let after = wanted
        let added = after.filter { !before.contains($0) }.map(Action.subscribe)
        let removed = before.filter { !after.contains($0) }.map(Action.unsubscribe)
        return added + removed
    }
}
