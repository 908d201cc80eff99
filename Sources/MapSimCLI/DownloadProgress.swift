import MapSimKit

/// What a region download's progress line says in a log that is no terminal: how far it is, and,
/// when it waits, on what — how long nothing has arrived, and the last failed attempt it will try
/// again — so that a download held by a silent or failing server is never a silent wait.
struct DownloadProgress: Sendable {
    private var status: OfflineRegionStatus?
    /// When a resource last arrived (or the download began).
    private var lastArrival = ContinuousClock.now
    private var retries = 0
    private var lastRetry: RegionDownloader.Retry?
    /// When it was noted.
    private var lastRetryNoted = ContinuousClock.now

    /// Takes the download's status after a resource.
    mutating func note(_ status: OfflineRegionStatus) {
        if status.completedResourceCount != self.status?.completedResourceCount { lastArrival = .now }
        self.status = status
    }

    /// Counts a failed attempt that will be tried again; returns the status to show it with.
    mutating func note(_ retry: RegionDownloader.Retry) -> OfflineRegionStatus? {
        retries += 1
        lastRetry = retry
        lastRetryNoted = .now
        return status
    }

    /// The line after `seconds` of downloading: `downloading for 40 s: 0 of 1+ resources, 0 B;
    /// nothing has arrived for 40 s; 1 attempt failed and is tried again, the last: …`.
    func line(after seconds: Int) -> String {
        var line = "downloading for \(seconds) s: "
        if let status {
            line += "\(status.completedResourceCount) of \(status.requiredResourceCount)\(status.requiredResourceCountIsPrecise ? "" : "+") resources, \(ByteCount.format(status.completedResourceSize))"
        } else {
            line += "nothing answered yet"
        }
        let quiet = (ContinuousClock.now - lastArrival).components.seconds
        if status != nil, quiet >= 1 { line += "; nothing has arrived for \(quiet) s" }
        if let lastRetry {
            line += "; \(retries) \(retries == 1 ? "attempt" : "attempts") failed and \(retries == 1 ? "is" : "are") tried again, the last: \(lastRetry.description(after: .now - lastRetryNoted))"
        }
        return line
    }
}
