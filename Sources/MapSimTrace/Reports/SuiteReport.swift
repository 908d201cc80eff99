import Foundation
import MapSim
import MapSimJSON
import MapSimPages

/// `mapsim run --report DIR`: `DIR/index.html` lists the suite — each scenario's status, duration,
/// budgets and first problem — and links a page per scenario: its trace's waterfall and, for a
/// failure, the golden and the new trace side by side with the differing events marked.
public struct SuiteReport: Sendable {
    /// One scenario's outcome.
    public struct Entry: Sendable {
        /// The scenario's name.
        public var name: String
        /// What it shows, for a reviewer.
        public var description: String
        /// Whether it passed.
        public var passed: Bool
        /// How long it took, in seconds of the wall clock.
        public var seconds: Double
        /// What failed: differences from the golden trace, unmet expectations.
        public var problems: [String]
        /// Its budget expectations, checked against the new trace.
        public var budgets: [BudgetVerdict]
        /// The new trace; nil when the scenario could not run.
        public var trace: Trace?
        /// The golden trace; nil when there is none (or it cannot be read).
        public var golden: Trace?

        /// An entry.
        public init(name: String, description: String = "", passed: Bool, seconds: Double, problems: [String], budgets: [BudgetVerdict] = [],
                    trace: Trace?, golden: Trace?) {
            self.name = name
            self.description = description
            self.passed = passed
            self.seconds = seconds
            self.problems = problems
            self.budgets = budgets
            self.trace = trace
            self.golden = golden
        }

        /// The entry of `scenario`, which ran into `trace` (nil when it could not run) with
        /// `problems`: its budget expectations are checked against the trace.
        public init(scenario: Scenario, seconds: Double, problems: [String], trace: Trace?, golden: Trace?) {
            var summary = LoadSummary()
            for event in trace?.events ?? [] { summary.record(event) }
            let budgets = scenario.expectations.flatMap { expectation -> [LoadBudget] in
                if case .budgets(let budgets) = expectation { budgets } else { [] }
            }
            self.init(name: scenario.name, description: scenario.description, passed: problems.isEmpty, seconds: seconds, problems: problems,
                      budgets: trace == nil ? [] : budgets.map { $0.check(summary) }, trace: trace, golden: golden)
        }

        /// Its name as a file name: anything but ASCII letters, digits, `-`, `_` and `.` replaced,
        /// so that a scenario's name never leaves the folder.
        var safeName: String {
            let safe = String(name.unicodeScalars.map { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
            })
            return safe.hasPrefix(".") ? "_" + safe : safe
        }
    }

    /// The scenarios, in the order they ran.
    public let entries: [Entry]
    /// Each scenario's page, in the order of `entries`: its safe name, numbered (`-2`, `-3`) when
    /// it would be another's page — the same name in two folders, `a b` beside `a_b`, names that
    /// differ only in case (one file on macOS) — and never the index.
    public let pageNames: [String]

    /// A report of `entries`.
    public init(entries: [Entry]) {
        self.entries = entries
        var taken: Set<String> = ["index"]
        pageNames = entries.map { entry in
            let base = entry.safeName
            var name = base
            var number = 1
            while taken.contains(name.lowercased()) {
                number += 1
                name = "\(base)-\(number)"
            }
            taken.insert(name.lowercased())
            return name + ".html"
        }
    }

    /// The index page.
    public var indexHTML: String {
        let seconds = entries.reduce(0) { $0 + $1.seconds }
        let scenarios: [JSONValue] = zip(entries, pageNames).map { entry, pageName in
            .object(JSONObject([
                ("name", .string(entry.name)), ("status", .string(entry.passed ? "passed" : "failed")), ("seconds", .number(entry.seconds)),
                ("events", .number(Double(entry.trace?.events.count ?? 0))), ("budgets", Self.budgets(entry.budgets)),
                ("problem", entry.problems.first.map { .string(String($0.split(separator: "\n").first ?? "")) } ?? .null), ("page", .string(pageName)),
            ]))
        }
        let failed = entries.filter { !$0.passed }.count
        let title = "mapsim scenarios: \(entries.count - failed) passed, \(failed) failed"
        return PageDocument(mode: "suite", title: title, data: JSONObject([("suite", .object(JSONObject([("scenarios", .array(scenarios)),
                                                                                                          ("seconds", .number(seconds))])))])).html
    }

    /// The page of one scenario.
    public func page(of entry: Entry) -> String {
        var data = JSONObject([("scenario", .object(JSONObject([
            ("name", .string(entry.name)), ("status", .string(entry.passed ? "passed" : "failed")), ("seconds", .number(entry.seconds)),
            ("description", .string(entry.description)), ("problems", .array(entry.problems.map { .string($0) })), ("budgets", Self.budgets(entry.budgets)),
        ])))])
        data["traces"] = .array(entry.trace.map { [TraceReport(name: "new run of \(entry.name)", trace: $0).json] } ?? [])
        if !entry.passed, let golden = entry.golden, let trace = entry.trace {
            var diff = TraceSideBySide(golden: golden, new: trace).json
            diff["goldenName"] = .string("\(entry.name).trace.yaml")
            diff["differences"] = .array(TraceDiff(expected: golden, actual: trace, compareHeaders: true).lines(limit: 200).map { .string($0) })
            data["diff"] = .object(diff)
        }
        return PageDocument(mode: "scenario", title: "Scenario \(entry.name)", data: data).html
    }

    /// Writes `index.html` and a page per scenario into `folder`, making it when it is missing.
    public func write(to folder: String) throws(TraceError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TraceError(.cannotWrite, file: folder, "the folder cannot be made: \(error.localizedDescription)", underlying: error)
        }
        for (entry, pageName) in zip(entries, pageNames) { try OutputFile.write(page(of: entry), to: folder + "/" + pageName, format: .page) }
        try OutputFile.write(indexHTML, to: folder + "/index.html", format: .page)
    }

    private static func budgets(_ verdicts: [BudgetVerdict]) -> JSONValue {
        .array(verdicts.map { .array([.string($0.line), .bool($0.isMet)]) })
    }
}
