import MapSimJSON
import Synchronization

/// The line of every value of a valid JSON document, by JSON path, worked out only when a
/// diagnostic needs one: a valid style never pays for it. The first few lines are each found by a
/// reading of the document that keeps nothing else (most styles with problems have a few); from
/// then on one index of every value answers. Threads that check parts of one style share it.
final class DocumentLines: Sendable {
    private struct Lookups {
        var index: JSONLineIndex?
        var readings = 0
    }

    /// How many lines are found by a reading of their own before the index is built.
    static let readingsBeforeIndex = 4

    private let bytes: [UInt8]
    private let lookups = Mutex(Lookups())

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The 1-based line of the value at `path` (`layers[0].paint.fill-color`), if there is one.
    func line(_ path: String) -> Int? {
        let index = lookups.withLock { lookups -> JSONLineIndex? in
            if lookups.index == nil {
                guard lookups.readings >= Self.readingsBeforeIndex else {
                    lookups.readings += 1
                    return nil
                }
                lookups.index = JSONLineIndex(scanning: bytes)
            }
            return lookups.index
        }
        guard let index else { return JSONLineIndex.line(of: path, in: bytes) }
        return index.line(path)
    }
}
