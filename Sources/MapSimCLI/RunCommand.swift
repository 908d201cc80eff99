import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim run SCENARIO...`: run scenarios and compare their traces with the golden ones.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Run scenarios and compare each trace with its golden trace.",
        discussion: """
        Each SCENARIO (NAME.scenario.yaml) runs on the simulated network and the virtual clock, \
        from a fresh cache, and its trace is compared with NAME.trace.yaml beside it: a difference \
        prints which event and field differ and fails. --record writes the golden traces instead; \
        a missing golden trace is an error, never recorded silently. The format is in \
        traces/README.md.

        --report DIR writes DIR/index.html, the suite at a glance (each scenario's status, \
        duration, budgets, first problem), and a page per scenario: its waterfall, milestones and \
        tiles as `mapsim report` draws them, and for a failure the golden and the new trace side \
        by side with the differing events marked. Every page is self-contained: keep DIR as a CI \
        artifact.

        \(ExitStatus.section([(ExitStatus.success, "every scenario passed"), (ExitStatus.failure, "a scenario differs from its golden trace, misses an expectation or has no golden trace"), (ExitStatus.unreadableInput, "a scenario cannot be read"), (ExitStatus.cannotWrite, "--junit or --report cannot be written")]))

        Examples:
          mapsim run traces/*.scenario.yaml
          mapsim run traces/cold-load.scenario.yaml --record
          mapsim run traces/*.scenario.yaml --shard 2/4 --junit shard2.xml
          mapsim run traces/*.scenario.yaml --report scenario-report
        """
    )

    @Argument(help: "Scenario files (*.scenario.yaml).")
    var scenarios: [String]

    @Flag(help: "Write the golden traces instead of comparing with them.")
    var record = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Run only share I of N (1-based), chosen by sorted file name, for CI matrices.", valueName: "I/N"))
    var shard: ShardArgument?

    @Flag(help: "Compare as `mapsim diff --relaxed` does: what each resource got, milestones in order, other events as counts.")
    var relaxed = false

    @Option(help: ArgumentHelp("Write HTML pages of the suite into DIR: index.html and a page per scenario.", valueName: "DIR"))
    var report: String?

    func run() async throws {
        let chosen = shard?.select(scenarios) ?? scenarios.sorted()
        var entries: [SuiteReport.Entry] = []
        var unreadable = false
        for path in chosen {
            let clock = ContinuousClock()
            let started = clock.now
            let scenario: Scenario
            do {
                scenario = try Scenario.read(file: path)
            } catch {
                printError("mapsim: \(error)")
                entries.append(SuiteReport.Entry(name: path, passed: false, seconds: 0, problems: ["unreadable: \(error)"], trace: nil, golden: nil))
                unreadable = true
                continue
            }
            var entry = await runOne(scenario, path: path)
            let elapsed = clock.now - started
            entry.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            entries.append(entry)
        }
        let failed = entries.filter { !$0.passed }.count
        print("scenarios: \(entries.count - failed) passed, \(failed) failed")
        if let junit { try writeJUnit(entries, to: junit) }
        if let report {
            do {
                try SuiteReport(entries: entries).write(to: report)
            } catch {
                throw ExitStatus.fail(error)
            }
            print("wrote \(report)/index.html and \(entries.count) scenario page\(entries.count == 1 ? "" : "s")")
        }
        if unreadable { throw ExitStatus.unreadableInput }
        if failed > 0 { throw ExitStatus.failure }
    }

    /// Runs one scenario: whether it passed, why not, its trace and its golden trace.
    private func runOne(_ scenario: Scenario, path: String) async -> SuiteReport.Entry {
        let golden = GoldenTrace(scenarioFile: path, name: scenario.name)
        let result: ScenarioResult
        do {
            result = try await ScenarioRunner().run(scenario)
        } catch {
            print("FAIL \(scenario.name): \(error)")
            return SuiteReport.Entry(scenario: scenario, seconds: 0, problems: ["\(error)"], trace: nil, golden: golden.read())
        }
        var problems = result.failures
        if record {
            do {
                try golden.record(result.trace)
            } catch {
                problems.append("\(error)")
            }
        } else {
            problems += golden.problems(with: result.trace, relaxed: relaxed, scenarioFile: path)
        }
        let entry = SuiteReport.Entry(scenario: scenario, seconds: 0, problems: problems, trace: result.trace, golden: record ? nil : golden.read())
        if problems.isEmpty {
            print("\(record ? "RECORDED" : "PASS") \(scenario.name) (\(result.trace.events.count) events)")
        } else {
            print("FAIL \(scenario.name)")
            for problem in problems { print("  " + problem) }
        }
        return entry
    }

    private func writeJUnit(_ entries: [SuiteReport.Entry], to path: String) throws {
        let report = JUnitReport(name: "mapsim scenarios", cases: entries.map {
            JUnitReport.Case(name: $0.name, className: "mapsim.scenarios", seconds: $0.seconds, failure: $0.passed ? nil : $0.problems.joined(separator: "\n"))
        })
        do {
            try OutputFile.write(report.xml, to: path, format: .junit)
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
