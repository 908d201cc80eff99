/// The updates of one GeoJSON source on their way through the worker, as MapLibre handles them: one
/// in flight at a time, and everything that arrives meanwhile merged into one pending update (the
/// newest state per feature), so updates faster than the map applies them never queue without bound.
struct GeoJSONUpdateQueue: Sendable {
    /// One update: its changes and the data-id the caller gave last.
    struct Update: Sendable {
        var diff: GeoJSONSourceDiff
        var dataID: String?
        /// Tells the worker's answer for this update from a stale one.
        var token: Int
    }

    private(set) var inFlight: Update?
    private(set) var pending: Update?

    /// Whether nothing is in flight or pending.
    var isIdle: Bool { inFlight == nil && pending == nil }

    /// Takes an update; returns it when it goes to the worker now (nothing else was in flight).
    mutating func enqueue(_ diff: GeoJSONSourceDiff, dataID: String?, token: Int) -> Update? {
        guard inFlight == nil else {
            var merged = pending ?? Update(diff: GeoJSONSourceDiff(), dataID: nil, token: token)
            // Let go of the stored copy first, so that merging changes the diff in place.
            pending = nil
            merged.diff.merge(diff)
            merged.dataID = dataID ?? merged.dataID
            pending = merged
            return nil
        }
        let update = Update(diff: diff, dataID: dataID, token: token)
        inFlight = update
        return update
    }

    /// The worker finished the update with `token`: it is returned, and the pending update (if any)
    /// goes in flight with a new token.
    mutating func finish(token: Int, nextToken: Int) -> (done: Update, next: Update?)? {
        guard let done = inFlight, done.token == token else { return nil }
        inFlight = pending.map { Update(diff: $0.diff, dataID: $0.dataID, token: nextToken) }
        pending = nil
        return (done, inFlight)
    }
}
