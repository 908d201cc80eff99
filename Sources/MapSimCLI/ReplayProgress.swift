import Foundation
import MapSimKit

/// One line of replay progress on standard error, redrawn in place; silent when not enabled.
struct ReplayProgress {
    let enabled: Bool

    func show(_ summary: DynamicEntitySession.Summary) {
        guard enabled else { return }
        let counts = summary.counts
        writeText("\r\u{1B}[K\(counts.observationsReceived) observations, \(summary.entitiesKept) entities kept, \(counts.observationsPurged) purged", to: STDERR_FILENO)
    }

    func clear() {
        if enabled { writeText("\r\u{1B}[K", to: STDERR_FILENO) }
    }
}
