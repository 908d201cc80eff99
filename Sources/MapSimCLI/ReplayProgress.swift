import Foundation
import MapSimKit

/// One line of replay progress on standard error, redrawn in place; silent when not enabled.
struct ReplayProgress {
    let enabled: Bool

    func show(_ summary: DynamicEntitySession.Summary) {
        guard enabled else { return }
        let counts = summary.counts
        FileHandle.standardError.write(Data("\r\u{1B}[K\(counts.observationsReceived) observations, \(summary.entitiesKept) entities kept, \(counts.observationsPurged) purged".utf8))
    }

    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
