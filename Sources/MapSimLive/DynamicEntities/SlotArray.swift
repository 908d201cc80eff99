/// Elements in an array whose freed places are reused: an index stays valid while its element is
/// kept, and a store that adds and purges without end stays the size of what it keeps.
struct SlotArray<Element>: Sendable where Element: Sendable {
    private var elements: [Element] = []
    private var free: [Int32] = []

    /// Puts `element` in a free place, or a new one; returns its index.
    mutating func insert(_ element: Element) -> Int32 {
        if let index = free.popLast() {
            elements[Int(index)] = element
            return index
        }
        elements.append(element)
        return Int32(elements.count - 1)
    }

    /// Frees the place at `index` for a later `insert`; what is there stays until then.
    mutating func release(_ index: Int32) {
        free.append(index)
    }

    /// The element at `index`.
    subscript(index: Int) -> Element {
        get { elements[index] }
        _modify { yield &elements[index] }
    }
}
