import MapSimJSON
import Synchronization

/// The line of every value of a valid JSON document, by JSON path, worked out only when a
/// diagnostic first needs one: a valid style never pays for it. Threads that check parts of one
/// style share it.
final class DocumentLines: Sendable {
    private let bytes: [UInt8]
    private let table = Mutex<JSONLineIndex?>(nil)

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The 1-based line of the value at `path` (`layers[0].paint.fill-color`), if there is one.
    func line(_ path: String) -> Int? {
        table.withLock { table in
            if table == nil { table = JSONLineIndex(scanning: bytes) }
            return table?.line(path)
        }
    }
}
