#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MapSimJSON
import Synchronization

/// Checks a style against the style spec v8 reference, with the messages, lines and order of
/// `gl-style-validate`: root properties, sources, layers (ids, refs, sources and source layers) and
/// the types, enums, ranges, colors and arrays of every property, legacy functions and legacy
/// filters, and expressions (see `StyleValidator+Expressions`).
public struct StyleValidator: Sendable {
    private var reference: StyleSpecSections
    var lines = DocumentLines(bytes: [])
    var diagnostics: [StyleDiagnostic] = []
    /// The document, and where each layer is in it: layers are read one at a time, so that a large
    /// style never has all its layers in memory at once (the tree holds each one's id, ref and type).
    private var bytes: [UInt8] = []
    private var layerRanges: [Range<Int>]?
    /// Whether a layer read from its range was not valid JSON: the first reading passed over what
    /// it did not keep, and the whole document's reading then says what is wrong.
    private var layerIsUnreadable = false
    /// The layers by id, in order, for the duplicate and ref checks (`===` between ids).
    private var layersByID: [LayerID: [Int]] = [:]
    /// The expressions compiled so far, each once.
    var compiled = ExpressionCompileCache()
    /// Whether the root has `imports`, which MapLibre's specification does not have.
    private var hasImports = false

    /// What a MapLibre check of a style with `imports` adds after gl-style-validate's diagnostics.
    static let ignoredImportsNote = "imports: MapLibre ignores \"imports\"; the imported styles are not loaded (Mapbox loads them: --engine mapbox checks them)"

    /// A layer id as `===` compares it: a string, number, boolean or null (objects and arrays are
    /// never equal to anything).
    private enum LayerID: Hashable, Sendable {
        case string(String), number(Double), bool(Bool), null

        init?(_ value: JSONValue?) {
            switch value {
            case .string(let text)?: self = .string(text)
            case .number(let number)?: self = .number(number)
            case .bool(let flag)?: self = .bool(flag)
            case .null?: self = .null
            default: return nil
            }
        }
    }

    /// What a large style's check built, moved here from the thread that checked it, to be freed by
    /// another thread: a copy would not do, as whichever thread let go of its copy last would free it.
    private final class Leftovers: Sendable {
        private let contents: Mutex<(validator: StyleValidator, document: JSONValue)?>

        init(_ validator: consuming StyleValidator, _ document: consuming JSONValue) {
            contents = Mutex((validator, document))
        }

        /// Frees what was moved here on a thread of its own at the idle scheduling priority, which
        /// runs only on a core that has nothing else to run. A worker thread of normal priority
        /// woken for it took the caller's core from it for a millisecond (the wake-up lands on the
        /// waker's core), while the caller had only its answer left to give.
        func freeWhenIdle() {
            ParallelThreads.detach(atIdlePriority: true) { self.free() }
        }

        /// Frees what was moved here, on the calling thread.
        private func free() {
            contents.withLock { $0 = nil }
        }
    }

    /// The reference's sections, shared by every validation and by layers' property lookups, each
    /// read the first time it is asked for.
    static let parsedReference = StyleSpecSections()

    /// Copies of the reference, one for each thread beside the caller's that checks a large style's
    /// layers (as many as `threadCount`, less one), read at once.
    static let workerReferences: [StyleSpecSections] = {
        let count = threadCount - 1
        guard count > 0 else { return [] }
        let copies = (0..<count).map { _ in StyleSpecSections() }
        ParallelThreads.run(count) { index in copies[index].readAll() }
        return copies
    }()

    /// How many threads check a style's layers: one a core, eight at most (past that, their copies
    /// of the specification cost more than they save).
    private static let threadCount = min(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), 8)

    private init() {
        reference = Self.parsedReference
    }

    /// The check of `document`, read from `bytes` with the layers at `layerRanges` summarized, its
    /// diagnostics in gl-style-validate's order.
    private init(checking document: JSONValue, layersAt layerRanges: [Range<Int>]?, in bytes: [UInt8]) {
        self.init()
        self.layerRanges = layerRanges
        if layerRanges != nil { self.bytes = bytes }
        lines = DocumentLines(bytes: bytes)
        validateRoot(document)
        // gl-style-validate sorts its errors by line with `a.line - b.line`, NaN for none.
        JavaScriptArraySort.sort(&diagnostics) { a, b in
            guard let first = a.line, let second = b.line else { return .nan }
            return Double(first - second)
        }
        if hasImports {
            diagnostics.append(StyleDiagnostic(message: Self.ignoredImportsNote, line: lines.line("imports"), isWarning: true))
        }
    }

    /// Every problem of the style in `bytes` under the `flavor` specification, in the order that
    /// flavor's gl-style-validate reports them. MapLibre's validator says nothing of root keys it
    /// does not know, so a MapLibre check of a style with `imports` ends with one warning of ours,
    /// at the key's line, that MapLibre ignores them (`ignoredImportsNote`).
    public static func validate(_ bytes: [UInt8], flavor: StyleSpecFlavor = .maplibre) -> [StyleDiagnostic] {
        switch flavor {
        case .maplibre: validateAsMapLibre(bytes)
        case .mapbox, .mapboxGLJS: MapboxStyleValidator.validate(bytes, flavor: flavor)
        }
    }

    /// The style in `bytes` checked as MapLibre's gl-style-validate checks it.
    private static func validateAsMapLibre(_ bytes: [UInt8]) -> [StyleDiagnostic] {
        let isLarge = bytes.count >= largeDocumentSize
        // The specification, then the copies of it that the threads checking the layers beside this
        // one use, are read on another core while this one reads the document: this thread needs
        // the specification first, and the copies only once the layers are checked.
        let readsCopies = bytes.count >= copiedSpecificationSize
        if isLarge {
            ParallelThreads.detach {
                parsedReference.readAll()
                if readsCopies { _ = workerReferences }
            }
        }
        let document: JSONValue
        let elements: [Range<Int>]?
        do {
            // What validating one layer reads of the others: an object layer's id, ref and type.
            (document, elements) = try JSONParser.parse(bytes, summarizingElementsOf: "layers", keeping: ["id", "ref", "type"])
        } catch {
            return syntaxDiagnostics(bytes, error)
        }
        let validator = StyleValidator(checking: document, layersAt: elements, in: bytes)
        if validator.layerIsUnreadable {
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                return syntaxDiagnostics(bytes, error)
            }
        }
        let diagnostics = validator.diagnostics
        if isLarge {
            // Freeing what a large style's check built — its document, a thousand compiled
            // expressions — took a tenth of the check: another thread frees it, at idle priority,
            // while the caller goes on with the diagnostics.
            let leftovers = Leftovers(consume validator, consume document)
            leftovers.freeWhenIdle()
        }
        return diagnostics
    }

    /// A document that is not JSON, as gl-style-validate's JSON reader reports it when that reader
    /// would refuse the text too.
    private static func syntaxDiagnostics(_ bytes: [UInt8], _ error: JSONSyntaxError) -> [StyleDiagnostic] {
        let syntaxError = JSONLintSyntaxError.describe(bytes) ?? (error.message, error.line)
        return [StyleDiagnostic(message: syntaxError.message, line: syntaxError.line, isParseError: true)]
    }

    /// From what size a document's specification is read, and its leftovers freed, on another thread.
    private static let largeDocumentSize = 256 * 1024

    /// From what size a document's layers are checked with copies of the specification, one for
    /// each thread but one (read while the document is): below it, the threads' counts on shared
    /// objects cost less than reading the copies (Mapbox Streets, 297 KB: 5.0 → 5.4 ms with them;
    /// the 1.2 MB benchmark style is faster with them).
    private static let copiedSpecificationSize = 512 * 1024

    // MARK: - Reporting

    mutating func report(_ path: String, _ message: String, value: JSONValue?, lineOf linePath: String? = nil) {
        let line: Int? = value == .null ? nil : lines.line(linePath ?? path)
        diagnostics.append(StyleDiagnostic(message: path.isEmpty ? message : "\(path): \(message)", line: line))
    }

    /// "`expected` expected, `type of value` found", at `value`.
    mutating func reportType(_ path: String, expected: String, found value: JSONValue) {
        report(path, "\(expected) expected, \(value.typeName) found", value: value)
    }

    /// How gl-style-validate shows a found value: strings quoted, others as their type or literal.
    private func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONWriter.formatNumber(n)
        default: value.typeName
        }
    }

    private func section(_ name: String) -> JSONObject? { reference[name]?.objectValue }

    /// The source types, in the spec's order: the `type` values of the sections `source` lists.
    private var sourceTypes: [String] {
        (reference["source"]?.arrayValue ?? []).compactMap(\.stringValue).flatMap { section($0)?["type"]?["values"]?.objectValue?.keys ?? [] }
    }

    /// What the reference looks `key` up by: its part before the first dot (`text-field.en` is
    /// `text-field`), found without splitting the key into an array of parts.
    static func specKey(_ key: String) -> String {
        guard let dot = key.utf8.firstIndex(of: UInt8(ascii: ".")) else { return key }
        return String(key[..<dot])
    }

    /// The path of `key` in the value at `path` (`layers[0]` and `paint` give `layers[0].paint`), as
    /// both flavors' diagnostics name it.
    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: - Root

    private mutating func validateRoot(_ document: JSONValue) {
        guard let root = document.objectValue else {
            reportType("", expected: "object", found: document)
            return
        }
        // As the reference: every member in order, then the required ones missing, then constants.
        let spec = section("$root") ?? JSONObject()
        for (key, value) in root.members {
            if key == "imports" { hasImports = true }
            switch key {
            case "sources":
                validateSources(value)
            case "layers":
                validateLayers(value, sources: root["sources"])
            case "sprite":
                validateSprite(value)
            case "glyphs":
                validateGlyphs(value)
            case "light", "terrain", "sky", "projection":
                validateDetached(value, section: key)
            case "font-faces":
                validateFontFaces(value, path: key)
            case "state":
                if value.objectValue == nil { reportType(key, expected: "object", found: value) }
            default:
                // Unknown root keys are allowed, as in gl-style-validate.
                let specKey = Self.specKey(key)
                if let entry = spec[specKey]?.objectValue { validateValue(value, path: key, spec: entry) }
            }
        }
        for (key, entry) in spec.members where entry["required"] == .bool(true) && root[key] == nil {
            report("", "missing required property \"\(key)\"", value: document)
        }
        if Self.isPresent(root["constants"]) {
            report("constants", "constants have been deprecated as of v8", value: root["constants"])
        }
    }

    /// `font-faces`: an object whose fonts are each a URL or an array of `{url, unicode-range}`.
    private mutating func validateFontFaces(_ value: JSONValue, path: String) {
        guard let fonts = value.objectValue else { return reportType(path, expected: "object", found: value) }
        let string = JSONValue.object(JSONObject([("type", .string("string")), ("required", .bool(true))]))
        let ranges = JSONValue.object(JSONObject([("type", .string("array")), ("value", .string("string"))]))
        let face = JSONObject([("url", string), ("unicode-range", ranges)])
        for (name, font) in fonts.members {
            let child = Self.join(path, name)
            switch font {
            case .string:
                continue
            case .array(let faces):
                for (index, element) in faces.enumerated() {
                    validateObject(element.objectValue ?? JSONObject(), path: "\(child)[\(index)]", spec: face, whole: element)
                }
            default:
                report(child, "string or array expected, \(font.typeName) found", value: font)
            }
        }
    }

    /// Light, terrain and sky report their members without the parent's path, as gl-style-validate does.
    private mutating func validateDetached(_ value: JSONValue, section name: String) {
        guard let object = value.objectValue else {
            reportType(name, expected: "object", found: value)
            return
        }
        let spec = section(name) ?? JSONObject()
        for (key, member) in object.members {
            let path = Self.join(name, key)
            if let entry = spec[key]?.objectValue {
                let before = diagnostics.count
                validateValue(member, path: path, spec: entry)
                for index in before..<diagnostics.count where diagnostics[index].message.hasPrefix(name + ".") {
                    diagnostics[index].message.removeFirst(name.count + 1)
                }
            } else {
                diagnostics.append(StyleDiagnostic(message: "\(key): unknown property \"\(key)\"", line: member == .null ? nil : lines.line(path)))
            }
        }
    }

    private mutating func validateGlyphs(_ value: JSONValue) {
        guard case .string(let url) = value else {
            reportType("glyphs", expected: "string", found: value)
            return
        }
        for token in Self.glyphTokensMissing(from: url) {
            report("glyphs", "\"glyphs\" url must include a \"\(token)\" token", value: value)
        }
    }

    /// The tokens a glyphs URL must include that `url` does not, in the validators' order, found by
    /// its bytes as JavaScript's `indexOf` finds them. (Foundation's `contains`, which the module
    /// sees, set up its string search on a first call, 60 µs of a small style's check; the
    /// `_StringProcessing` one faults in its search's code and metadata, 100 µs.)
    static func glyphTokensMissing(from url: String) -> [String] {
        let text = Array(url.utf8)
        return ["{fontstack}", "{range}"].filter { token in
            !text.indices.contains { text[$0...].starts(with: token.utf8) }
        }
    }

    // MARK: - Sprite

    /// A URL, or an array of `{id, url}` objects. (The reference never finds duplicates: its ids are
    /// boxed strings, which JavaScript's `includes` compares by identity.)
    private mutating func validateSprite(_ value: JSONValue) {
        guard case .array(let sheets) = value else {
            if case .string = value { return }
            return reportType("sprite", expected: "string", found: value)
        }
        let pair = JSONObject([("id", .object(JSONObject([("type", .string("string")), ("required", .bool(true))]))),
                               ("url", .object(JSONObject([("type", .string("string")), ("required", .bool(true))])))])
        for (index, sheet) in sheets.enumerated() {
            validateObject(sheet.objectValue ?? JSONObject(), path: "sprite[\(index)]", spec: pair, whole: sheet)
        }
    }

    // MARK: - Sources

    private mutating func validateSources(_ value: JSONValue) {
        guard let sources = value.objectValue else {
            reportType("sources", expected: "object", found: value)
            return
        }
        for (id, source) in sources.members {
            validateSource(source, path: "sources.\(id)")
        }
    }

    /// A source by its type, as gl-style-validate checks it: with no type — missing, null, or a
    /// source that is not an object at all — only "type" is required.
    private mutating func validateSource(_ source: JSONValue, path: String) {
        guard let object = source.objectValue, let type = object["type"], type != .null else {
            return report(path, "\"type\" is required", value: source)
        }
        switch type.stringValue {
        case "vector", "raster":
            validateObject(object, path: path, spec: section("source_" + (type.stringValue ?? "")) ?? JSONObject(), whole: source, readsPromoteId: true)
        case "raster-dem":
            validateRasterDEMSource(object, path: path)
        case "geojson":
            validateObject(object, path: path, spec: section("source_geojson") ?? JSONObject(), whole: source, readsPromoteId: true)
            validateClusterProperties(object, path: path)
        case "video", "image":
            validateObject(object, path: path, spec: section("source_" + (type.stringValue ?? "")) ?? JSONObject(), whole: source)
        case "canvas":
            diagnostics.append(StyleDiagnostic(message: "\(path): Please use runtime APIs to add canvas sources, rather than including them in stylesheets.",
                                               line: nil, identifier: "source.canvas"))
        default:
            let types = sourceTypes
            report(Self.join(path, "type"), "expected one of [\(types.joined(separator: ", "))], \(JSONWriter.string(type)) found", value: type)
        }
    }

    /// A raster-dem source: the custom-encoding factors only with `"encoding": "custom"`; its
    /// messages are keyed by the bare property name, as the reference's are.
    private mutating func validateRasterDEMSource(_ source: JSONObject, path: String) {
        let spec = section("source_raster_dem") ?? JSONObject()
        let isCustom = source["encoding"] == .string("custom")
        let encodingName = Self.isPresent(source["encoding"]) ? "\"\(Self.javaScriptString(source["encoding"]))\"" : "Default"
        let before = diagnostics.count
        for (key, value) in source.members {
            let child = Self.join(path, key)
            if !isCustom && ["redFactor", "greenFactor", "blueFactor", "baseShift"].contains(key) {
                report(child, "In \"\(path)\": \"\(key)\" is only valid when \"encoding\" is set to \"custom\". \(encodingName) encoding found", value: value)
            } else if let entry = spec[key]?.objectValue {
                validateValue(value, path: child, spec: entry)
            } else {
                report(child, "unknown property \"\(key)\"", value: value)
            }
        }
        for index in before..<diagnostics.count where diagnostics[index].message.hasPrefix(path + ".") {
            diagnostics[index].message.removeFirst(path.count + 1)
        }
    }

    /// `promoteId`: a string, or an object of strings. Any other value has its members checked as
    /// the reference enumerates them: an array's elements; a number's or a boolean's only
    /// enumerable member, the `__line__` its JSON reader gave it (a number, with no line of its own).
    private mutating func validatePromoteId(_ value: JSONValue, path: String) {
        switch value {
        case .number, .bool:
            diagnostics.append(StyleDiagnostic(message: "\(path).__line__: string expected, number found", line: nil))
        case .object(let members):
            for (key, member) in members.members where member.stringValue == nil { reportType(Self.join(path, key), expected: "string", found: member) }
        case .array(let elements):
            for (index, element) in elements.enumerated() where element.stringValue == nil {
                report(Self.join(path, String(index)), "string expected, \(element.typeName) found", value: element, lineOf: "\(path)[\(index)]")
            }
        default:
            return
        }
    }

    // MARK: - Layers

    private mutating func validateLayers(_ value: JSONValue, sources: JSONValue?) {
        guard let layers = value.arrayValue else {
            reportType("layers", expected: "array", found: value)
            return
        }
        layersByID = [:]
        for (index, layer) in layers.enumerated() {
            if let id = LayerID(layer.objectValue?["id"]) { layersByID[id, default: []].append(index) }
        }
        // A large style's layers are checked in parts, on as many threads as the machine has; each
        // part's diagnostics come out in order, and the parts' in theirs, as one pass would give them.
        guard let ranges = layerRanges, layers.count >= Self.layersCheckedInParallel else {
            return validateLayers(layers, in: layers.indices, sources: sources)
        }
        // A closure, not `\.count`: a key path's first use has the runtime look `Range<Int>` up by
        // name, a scan of every conformance in the binary, on the check's critical path.
        let parts = Self.parts(ofSizes: ranges.map { $0.count }, count: Self.partsCheckedInParallel)
        let found = Mutex<(diagnostics: [[StyleDiagnostic]], unreadable: Bool)>((Array(repeating: [], count: parts.count), false))
        let base = self
        let threads = Self.threadCount
        let copies = bytes.count >= Self.copiedSpecificationSize ? Self.workerReferences : []
        let nextPart = Atomic<Int>(0)
        // Many more parts than threads: a thread that finishes its part early takes the next, so
        // no thread waits long on another whose layers happened to cost more. Each thread keeps
        // the expressions it compiled or found in a cache of its own in front of the shared one,
        // and in a large style each thread but one reads a copy of the specification of its own:
        // a value looked up or compared is retained and released, and threads that count
        // references on the same objects take their cache lines from each other at every count
        // (almost a quarter of the check's samples were such counts).
        ParallelThreads.run(threads) { thread in
            var validator = base
            validator.compiled = ExpressionCompileCache(inFrontOf: base.compiled)
            if thread > 0, thread <= copies.count { validator.reference = copies[thread - 1] }
            // Every layer looks its source up: the same few objects, counted on by every thread.
            var budget = Self.copiedSourcesSize
            let sources = thread == 0 ? sources : sources.map { Self.copied($0, budget: &budget) ?? $0 }
            while true {
                let part = nextPart.add(1, ordering: .relaxed).oldValue
                guard part < parts.count else { break }
                validator.diagnostics = []
                validator.validateLayers(layers, in: parts[part], sources: sources)
                let diagnostics = validator.diagnostics
                let unreadable = validator.layerIsUnreadable
                found.withLock {
                    $0.diagnostics[part] = diagnostics
                    $0.unreadable = $0.unreadable || unreadable
                }
            }
        }
        found.withLock {
            diagnostics += $0.diagnostics.joined()
            layerIsUnreadable = layerIsUnreadable || $0.unreadable
        }
    }

    /// `value` made again, every array, object and string of it a new one; nil when it has more
    /// than `budget` values (an inline GeoJSON source, say).
    private static func copied(_ value: JSONValue, budget: inout Int) -> JSONValue? {
        budget -= 1
        guard budget >= 0 else { return nil }
        switch value {
        case .null, .bool, .number: return value
        case .string(let text): return .string(String(decoding: Array(text.utf8), as: UTF8.self))
        case .array(let elements):
            var copies: [JSONValue] = []
            copies.reserveCapacity(elements.count)
            for element in elements {
                guard let copy = copied(element, budget: &budget) else { return nil }
                copies.append(copy)
            }
            return .array(copies)
        case .object(let object):
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(object.members.count)
            for member in object.members {
                guard let copy = copied(member.value, budget: &budget) else { return nil }
                members.append((String(decoding: Array(member.key.utf8), as: UTF8.self), copy))
            }
            return .object(JSONObject(members: members))
        }
    }

    /// The most values of a style's sources that a thread checking its layers copies for itself.
    private static let copiedSourcesSize = 10_000

    /// Consecutive runs of layers of about equal text, `count` of them at most: a layer's cost
    /// follows its size.
    static func parts(ofSizes sizes: [Int], count: Int) -> [Range<Int>] {
        let total = sizes.reduce(0, +)
        var parts: [Range<Int>] = []
        var start = 0
        var sum = 0
        for (index, size) in sizes.enumerated() {
            sum += size
            let boundary = total * (parts.count + 1) / count
            if sum >= boundary || index == sizes.count - 1 {
                parts.append(start..<(index + 1))
                start = index + 1
            }
        }
        return parts
    }

    /// How many parts a large style's layers are cut into.
    private static let partsCheckedInParallel = 64

    /// From how many layers a style's layers are checked on several threads: with the threads
    /// started on another core at once (`ParallelThreads`), from 32 rather than 128 (OSM Bright,
    /// 123 layers, 2.62 → 2.35 ms; Mapbox Bright, 99 layers, 2.33 → 2.19 ms).
    private static let layersCheckedInParallel = 32

    private mutating func validateLayers(_ layers: [JSONValue], in indices: Range<Int>, sources: JSONValue?) {
        for index in indices {
            let summary = layers[index]
            let path = "layers[\(index)]"
            // Read from the document, and checked, when the parse kept only summaries.
            let layer: JSONValue
            if let layerRanges {
                guard let read = try? JSONParser.parseElement(bytes, in: layerRanges[index]) else {
                    layerIsUnreadable = true
                    return
                }
                layer = read
            } else {
                layer = summary
            }
            guard let object = layer.objectValue else {
                reportType(path, expected: "object", found: layer)
                continue
            }
            validateLayer(object, index: index, whole: layer, layers: layers, sources: sources)
        }
    }

    /// A layer, in gl-style-validate's order: type or ref, duplicate ids (once per earlier use),
    /// the ref or the source — checked whatever the type, unknown or missing, but background —
    /// then every member, then the id.
    private mutating func validateLayer(_ layer: JSONObject, index: Int, whole: JSONValue, layers: [JSONValue], sources: JSONValue?) {
        let path = "layers[\(index)]"
        if !Self.isPresent(layer["type"]) && !Self.isPresent(layer["ref"]) {
            report(path, "either \"type\" or \"ref\" is required", value: whole)
        }
        var type = layer["type"]
        let id = layer["id"]
        if Self.isPresent(id) {
            for earlierIndex in LayerID(id).flatMap({ layersByID[$0] }) ?? [] where earlierIndex < index {
                let previousLine = lines.line("layers[\(earlierIndex)].id").map(String.init) ?? "undefined"
                report(path, "duplicate layer id \"\(Self.javaScriptString(id))\", previously used at line \(previousLine)", value: id, lineOf: Self.join(path, "id"))
            }
        }
        let name = Self.javaScriptString(id)
        if let ref = layer["ref"] {
            for key in ["type", "source", "source-layer", "filter", "layout"] where layer[key] != nil {
                report(path, "\"\(key)\" is prohibited for ref layers", value: layer[key], lineOf: Self.join(path, key))
            }
            if let parentIndex = LayerID(ref).flatMap({ layersByID[$0]?.last }) {
                let parent = layers[parentIndex]
                if Self.isPresent(parent["ref"]) {
                    report(path, "ref cannot reference another ref layer", value: ref, lineOf: Self.join(path, "ref"))
                } else {
                    type = parent["type"]
                }
            } else {
                report(path, "ref layer \"\(Self.javaScriptString(ref))\" not found", value: ref, lineOf: Self.join(path, "ref"))
            }
        } else if !Self.strictlyEqual(type, .string("background")) {
            if let source = layer["source"], source != .null {
                checkSource(of: layer, type: type, in: sources, path: path, whole: whole)
            } else {
                report(path, "missing required property \"source\"", value: whole)
            }
        }
        if Self.strictlyEqual(type, .string("raster")), let paint = layer["paint"]?.objectValue,
           Self.isPresent(paint["resampling"]), Self.isPresent(paint["raster-resampling"]) {
            report(path, "layer \"\(name)\" redundantly specifies \"resampling\" and \"raster-resampling\" paint properties, but only one is allowed. It is advised to use \"resampling\".", value: layer["paint"], lineOf: Self.join(path, "paint"))
        }
        let spec = section("layer") ?? JSONObject()
        // A layout or paint of a type the spec does not have is not looked into.
        let typeName = type.map { Self.javaScriptString($0) }
        for (key, value) in layer.members {
            let specKey = Self.specKey(key)
            switch specKey {
            case "type":
                if let entry = spec["type"]?.objectValue { validateValue(value, path: Self.join(path, "type"), spec: entry) }
            case "layout", "paint":
                validateProperties(value, path: Self.join(path, key), section: typeName.map { "\(specKey)_\($0)" }, isLayout: specKey == "layout")
            case "filter":
                validateFilter(value, path: Self.join(path, key))
            default:
                // Unknown layer keys are allowed, as in gl-style-validate.
                if let entry = spec[specKey]?.objectValue { validateValue(value, path: Self.join(path, key), spec: entry) }
            }
        }
        if layer["id"] == nil { report(path, "missing required property \"id\"", value: whole) }
    }

    /// The layer-type and source-type rules of gl-style-validate, in its order.
    private mutating func checkSource(of layer: JSONObject, type: JSONValue?, in sources: JSONValue?, path: String, whole: JSONValue) {
        let key = layer["source"]
        let name = Self.javaScriptString(layer["id"])
        guard let source = Self.member(of: sources, named: key), source != .null else {
            return report(path, "source \"\(Self.javaScriptString(key))\" not found", value: key, lineOf: Self.join(path, "source"))
        }
        let sourceType = source.objectValue?["type"]
        func sourceIs(_ name: String) -> Bool { Self.strictlyEqual(sourceType, .string(name)) }
        func layerIs(_ name: String) -> Bool { Self.strictlyEqual(type, .string(name)) }
        let message: String?
        if sourceIs("vector") && layerIs("raster") {
            message = "layer \"\(name)\" requires a raster source"
        } else if !sourceIs("raster-dem") && (layerIs("hillshade") || layerIs("color-relief")) {
            message = "layer \"\(name)\" requires a raster-dem source"
        } else if sourceIs("raster") && !layerIs("raster") {
            message = "layer \"\(name)\" requires a vector source"
        } else if sourceIs("vector") && !Self.isPresent(layer["source-layer"]) {
            return report(path, "layer \"\(name)\" must specify a \"source-layer\"", value: whole)
        } else if sourceIs("raster-dem") && !layerIs("hillshade") && !layerIs("color-relief") {
            message = "raster-dem source can only be used with layer type 'hillshade' or 'color-relief'."
        } else if layerIs("line"), Self.isPresent(layer["paint"]?.objectValue?["line-gradient"]),
                  !sourceIs("geojson") || !Self.isPresent(source.objectValue?["lineMetrics"]) {
            return report(path, "layer \"\(name)\" specifies a line-gradient, which requires a GeoJSON source with `lineMetrics` enabled.", value: whole)
        } else {
            message = nil
        }
        if let message { report(path, message, value: key, lineOf: Self.join(path, "source")) }
    }

    private mutating func validateProperties(_ value: JSONValue, path: String, section name: String?, isLayout: Bool) {
        guard let object = value.objectValue else {
            reportType(path, expected: "object", found: value)
            return
        }
        // A layer of unknown type has its type reported; its properties are not checked.
        guard let spec = name.flatMap({ section($0) }) else { return }
        // A property's path is made only when something needs it: most properties have no problem.
        for (key, member) in object.members {
            if let entry = spec[key]?.objectValue {
                if case .string(let text) = member, let token = Self.interpolationToken(text), Self.supportsDataExpressions(entry), entry["tokens"] == nil {
                    report(Self.join(path, key), "\"\(key)\" does not support interpolation syntax\nUse an identity property function instead: `{ \"type\": \"identity\", \"property\": \(JSONWriter.string(.string(token))) }`.", value: member)
                    continue
                }
                if key == "text-font", name == "layout_symbol", member["type"] == .string("identity") {
                    report(Self.join(path, key), "\"text-font\" does not support identity functions", value: member)
                }
                validateValue(member, path: Self.join(path, key), spec: entry, context: .property(layout: isLayout, key: key))
            } else if !isLayout, key.hasSuffix("-transition"), spec[String(key.dropLast("-transition".count))]?["transition"] == .bool(true) {
                validateObject(member.objectValue ?? JSONObject(), path: Self.join(path, key), spec: section("transition") ?? JSONObject(), whole: member)
            } else {
                report(Self.join(path, key), "unknown property \"\(key)\"", value: member)
            }
        }
    }

    // MARK: - Values

    /// The members of an object by `spec` (a key `a.b` is checked as `a`, as the reference does);
    /// `readsPromoteId` for a source's `promoteId`, which has a validator of its own.
    private mutating func validateObject(_ object: JSONObject, path: String, spec: JSONObject, whole: JSONValue, readsPromoteId: Bool = false) {
        guard whole.objectValue != nil else {
            reportType(path, expected: "object", found: whole)
            return
        }
        for (key, value) in object.members {
            let child = Self.join(path, key)
            let specKey = Self.specKey(key)
            if readsPromoteId && specKey == "promoteId" {
                validatePromoteId(value, path: child)
            } else if let entry = spec[specKey]?.objectValue {
                validateValue(value, path: child, spec: entry)
            } else if spec["*"] == nil {
                report(path, "unknown property \"\(key)\"", value: value, lineOf: child)
            }
        }
        for (key, entry) in spec.members where entry["required"] == .bool(true) && object[key] == nil {
            report(path, "missing required property \"\(key)\"", value: whole)
        }
    }

    /// The `NAME` of a string that is exactly `{NAME}`, the legacy token syntax.
    private static func interpolationToken(_ text: String) -> String? {
        guard text.count > 2, text.first == "{", text.last == "}" else { return nil }
        let inner = text.dropFirst().dropLast()
        return inner.contains("}") ? nil : String(inner)
    }

    /// Whether a property accepts data (feature) expressions.
    static func supportsDataExpressions(_ spec: JSONObject) -> Bool {
        let type = spec["property-type"]?.stringValue
        return type == "data-driven" || type == "cross-faded-data-driven"
    }

    /// The `function` section of the reference.
    var functionSection: JSONObject { section("function") ?? JSONObject() }

    mutating func validateValue(_ value: JSONValue, path: @autoclosure () -> String, spec: JSONObject, context: ExpressionContext = .plain) {
        if case .object(let object) = value, spec["expression"] != nil || spec["property-type"] != nil || spec["function"] != nil {
            return validateFunction(object, path: path(), whole: value, propertySpec: spec)
        }
        if spec["expression"] != nil, Self.isExpression(value) {
            return validateExpression(value, path: path(), spec: spec, context: context)
        }
        guard let type = spec["type"]?.stringValue else { return }
        switch type {
        case "filter":
            validateFilter(value, path: path())
        case "number":
            guard case .number(let n) = value else { return reportType(path(), expected: "number", found: value) }
            if let minimum = spec["minimum"]?.numberValue, n < minimum {
                report(path(), "\(JSONWriter.formatNumber(n)) is less than the minimum value \(JSONWriter.formatNumber(minimum))", value: value)
            }
            if let maximum = spec["maximum"]?.numberValue, n > maximum {
                report(path(), "\(JSONWriter.formatNumber(n)) is greater than the maximum value \(JSONWriter.formatNumber(maximum))", value: value)
            }
        case "formatted", "resolvedImage":
            // Anything but a string is read as an expression, as the reference does.
            if case .string = value { return }
            validateExpression(value, path: path(), spec: spec, context: context)
        case "projectionDefinition":
            // An array that is not an expression (those were read above) is never a projection: the
            // reference's check of its elements' types sees the boxes its reader puts them in.
            switch value {
            case .string: return
            case .array: report(path(), "projection expected, invalid array \(JSONWriter.string(value)) found", value: value)
            default: report(path(), "projection expected, invalid type \"\(value.typeName)\" found", value: value)
            }
        case "string":
            if case .string = value { return }
            reportType(path(), expected: "string", found: value)
        case "boolean":
            if case .bool = value { return }
            reportType(path(), expected: "boolean", found: value)
        case "enum":
            let values: [JSONValue] = spec["values"]?.objectValue?.keys.map(JSONValue.string) ?? spec["values"]?.arrayValue ?? []
            if values.contains(value) { return }
            let listed = values.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: ", ")
            report(path(), "expected one of [\(listed)], \(JSONWriter.string(value)) found", value: value)
        case "color":
            guard case .string(let text) = value else { return reportType(path(), expected: "color", found: value) }
            if !CSSColor.isColor(text) { report(path(), "color expected, \(shown(value)) found", value: value) }
        case "array":
            validateArray(value, path: path(), spec: spec)
        case "numberArray", "colorArray":
            // One value, or a non-empty array of them.
            // One value or each element, by type alone: the reference checks no range here.
            let one = JSONObject([("type", .string(type == "numberArray" ? "number" : "color"))])
            guard case .array(let elements) = value else { return validateValue(value, path: path(), spec: one) }
            guard !elements.isEmpty else { return report(path(), "array length at least 1 expected, length 0 found", value: value) }
            for (index, item) in elements.enumerated() { validateValue(item, path: "\(path())[\(index)]", spec: one) }
        case "*":
            return
        default:
            if let sectionSpec = section(type) {
                if sectionSpec["type"] != nil, sectionSpec["values"] != nil {
                    validateValue(value, path: path(), spec: sectionSpec)
                } else {
                    validateObject(value.objectValue ?? JSONObject(), path: path(), spec: sectionSpec, whole: value)
                }
            }
        }
    }

    private mutating func validateArray(_ value: JSONValue, path: String, spec: JSONObject) {
        guard case .array(let elements) = value else { return reportType(path, expected: "array", found: value) }
        if let length = spec["length"]?.numberValue, elements.count != Int(length) {
            return report(path, "array length \(Int(length)) expected, length \(elements.count) found", value: value)
        }
        // An element is checked by its type and the array's enum values only, as the reference does:
        // the array's minimum and maximum are not applied to its elements.
        var elementSpec = JSONObject()
        if case .object(let object)? = spec["value"] {
            elementSpec = object
        } else if let name = spec["value"]?.stringValue {
            elementSpec = section(name) ?? JSONObject([("type", .string(name))])
            if let values = spec["values"] { elementSpec["values"] = values }
        }
        for (index, element) in elements.enumerated() {
            validateValue(element, path: "\(path)[\(index)]", spec: elementSpec)
        }
    }
}
