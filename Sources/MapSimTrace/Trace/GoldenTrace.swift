import Foundation

/// A golden trace: the reviewed YAML trace of a scenario, `NAME.trace.yaml` beside
/// `NAME.scenario.yaml`, and the one comparison of a new run against it — used by `mapsim run` and
/// by the regression tests alike.
public struct GoldenTrace: Sendable {
    /// The golden trace file.
    public let path: String

    /// The golden trace of the scenario named `name` whose file is `scenarioFile`.
    public init(scenarioFile: String, name: String) {
        path = URL(fileURLWithPath: scenarioFile).deletingLastPathComponent().appendingPathComponent("\(name).trace.yaml").path
    }

    /// What differs between `trace` and the golden trace, as lines a person can act on; empty when
    /// the run reproduces it. Strictly, recording `trace` again must give the same bytes;
    /// `relaxed` lets events of the same time window reorder and skips the byte comparison.
    public func problems(with trace: Trace, relaxed: Bool = false, scenarioFile: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            return ["no golden trace \(path); record it with: mapsim run --record \(scenarioFile)"]
        }
        let text = String(decoding: data, as: UTF8.self)
        let golden: Trace
        do {
            golden = try Trace.read(yaml: text, name: path)
        } catch {
            return ["\(error)"]
        }
        let diff = TraceDiff(expected: golden, actual: trace, relaxed: relaxed, compareHeaders: true)
        if !diff.isEmpty {
            return ["the trace differs from \(path) (\(diff.countLine)):\n" + diff.lines().map { "    " + $0 }.joined(separator: "\n")]
        }
        if !relaxed && trace.yaml != text {
            return ["recording again would change \(path): the events agree but their YAML does not"]
        }
        return []
    }

    /// The golden trace; nil when there is none or it cannot be read.
    public func read() -> Trace? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? Trace.read(yaml: String(decoding: data, as: UTF8.self), name: path)
    }

    /// Writes `trace` as the golden trace.
    public func record(_ trace: Trace) throws(TraceError) {
        try OutputFile.write(trace.yaml, to: path, format: .trace)
    }
}
