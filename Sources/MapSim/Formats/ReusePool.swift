import Foundation

/// Codec states kept for reuse — a libdeflate compressor takes more to set up than a tile takes to
/// deflate — each taken by one thread at a time.
final class ReusePool<Item: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Item] = []
    /// Items kept at most: one a core is plenty.
    private let capacity = 8
    private let make: @Sendable () -> Item?

    /// A pool that makes an item with `make` when none is idle.
    init(make: @escaping @Sendable () -> Item?) {
        self.make = make
    }

    /// An idle item, or a new one; nil when none can be made (memory runs out).
    func take() -> Item? {
        lock.withLock { idle.popLast() } ?? make()
    }

    /// Gives back an item taken, for the next to use.
    func give(_ item: Item) {
        lock.withLock { if idle.count < capacity { idle.append(item) } }
    }
}
