import MapSimJSON
import MapSimStyle

/// The styles a Mapbox style imports, as one style load keeps them: the root and each import, with
/// its scope, where it came from, how far it is, its parsed style and its config. Index 0 is the
/// root; an import's children are those of its imports that load (a cycle loads as an empty style
/// and is no child).
struct ImportTree: Sendable {
    /// Where an import is.
    enum Status: Sendable, Equatable {
        /// Its style is being requested or waits for the next frame.
        case loading
        /// Its style is parsed and its parts are in the map.
        case loaded
        /// It failed to load (its message was sent).
        case failed
    }

    /// One style of the tree.
    struct Node: Sendable {
        var scope: StyleScope
        /// The URL as written (empty for an inline or empty import).
        var url: String
        /// Its URLs' resolver: relative URLs resolve against the import's own URL.
        var resources: StyleResources
        /// The normalized URLs of the styles above it and its own: an import of one of them is a cycle.
        var ancestorURLs: Set<String>
        var status: Status
        /// The style as written (its own names, not scoped); nil until parsed.
        var style: Style?
        /// What `["config", NAME]` reads in it: its import's `config`, then its schema's defaults.
        var config = JSONObject()
        /// The import's own `config`, which its schema's defaults fill in.
        var importConfig = JSONObject()
        /// Its imports that load, in order.
        var children: [Int] = []
    }

    /// Index 0 is the root; empty when the engine reads no imports.
    private(set) var nodes: [Node] = []
    /// The JSON of each style URL loaded, normalized: a URL loaded once is not requested again.
    var loadedJSON: [String: [UInt8]] = [:]
    /// The imports' parts are merged into the map's style (their layers placed by slot).
    var isMerged = false

    /// Whether the style has a tree (a Mapbox engine loads it).
    var isActive: Bool { !nodes.isEmpty }

    /// The node at `index`.
    subscript(index: Int) -> Node {
        get { nodes[index] }
        set { nodes[index] = newValue }
    }

    /// Adds `node`, as a child of `parent` when it loads; returns its index.
    mutating func add(_ node: Node, childOf parent: Int?) -> Int {
        nodes.append(node)
        if let parent { nodes[parent].children.append(nodes.count - 1) }
        return nodes.count - 1
    }

    /// The index of the node of `scope`.
    func index(of scope: StyleScope) -> Int? {
        nodes.firstIndex { $0.scope == scope }
    }

    /// Whether no import is still loading, and — when a failed import blocks the style — none failed.
    func isSettled(failedImportBlocks: Bool) -> Bool {
        !nodes.contains { $0.status == .loading || (failedImportBlocks && $0.status == .failed) }
    }

    /// The nodes in Mapbox's merge order: each style's imports first, in order, then the style.
    var postOrder: [Int] {
        guard !nodes.isEmpty else { return [] }
        var order: [Int] = []
        func walk(_ index: Int) {
            for child in nodes[index].children { walk(child) }
            order.append(index)
        }
        walk(0)
        return order
    }
}
