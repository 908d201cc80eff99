import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim run SCENARIO...`: run scenarios and compare their traces with the golden ones.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and compare each trace with its golden trace.",
        discussion: """
        Each SCENARIO (NAME.scenario.yaml) runs on the simulated network and the virtual clock, \
        from a fresh cache, and its trace is compared with NAME.trace.yaml beside it: a difference \
        prints which event and field differ and fails. --record writes the golden traces instead; \
        a missing golden trace is an error, never recorded silently. The format is in \
        traces/README.md.

        Exit status: 0 when every scenario passed; 1 when any differs from its golden trace, \
        misses an expectation or has no golden trace; 2 when a scenario cannot be read.

        Examples:
          mapsim run traces/*.scenario.yaml
          mapsim run traces/cold-load.scenario.yaml --record
          mapsim run traces/*.scenario.yaml --shard 2/4 --junit shard2.xml
        """
    )

    @Argument(help: "Scenario files (*.scenario.yaml).")
    var scenarios: [String]

    @Flag(help: "Write the golden traces instead of comparing with them.")
    var record = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "FILE"))
    var junit: String?

    @Option(help: ArgumentHelp("Run only share I of N (1-based), chosen by sorted file name, for CI matrices.", valueName: "I/N"))
    var shard: ShardArgument?

    @Flag(help: "Compare as `mapsim diff --relaxed` does: what each resource got, milestones in order, other events as counts.")
    var relaxed = false

    func run() async throws {
        let chosen = shard?.select(scenarios) ?? scenarios.sorted()
        var outcomes: [(name: String, failure: String?, seconds: Double)] = []
        var unreadable = false
        for path in chosen {
            let clock = ContinuousClock()
            let started = clock.now
            let scenario: Scenario
            do {
                scenario = try Scenario.read(file: path)
            } catch {
                printError("mapsim: \(error)")
                outcomes.append((path, "unreadable: \(error)", 0))
                unreadable = true
                continue
            }
            let failure = await runOne(scenario, path: path)
            let elapsed = clock.now - started
            outcomes.append((scenario.name, failure, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        }
        let failed = outcomes.filter { $0.failure != nil }.count
        print("scenarios: \(outcomes.count - failed) passed, \(failed) failed")
        if let junit { try writeJUnit(outcomes, to: junit) }
        if unreadable { throw ExitStatus.unreadableInput }
        if failed > 0 { throw ExitStatus.failure }
    }

    /// Runs one scenario; returns why it failed, or nil.
    private func runOne(_ scenario: Scenario, path: String) async -> String? {
        let golden = GoldenTrace(scenarioFile: path, name: scenario.name)
        let result: ScenarioResult
        do {
            result = try await ScenarioRunner().run(scenario)
        } catch {
            print("FAIL \(scenario.name): \(error)")
            return "\(error)"
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
        if problems.isEmpty {
            print("\(record ? "RECORDED" : "PASS") \(scenario.name) (\(result.trace.events.count) events)")
            return nil
        }
        print("FAIL \(scenario.name)")
        for problem in problems { print("  " + problem) }
        return problems.joined(separator: "\n")
    }

    private func writeJUnit(_ outcomes: [(name: String, failure: String?, seconds: Double)], to path: String) throws {
        let report = JUnitReport(name: "mapsim scenarios", cases: outcomes.map {
            JUnitReport.Case(name: $0.name, className: "mapsim.scenarios", seconds: $0.seconds, failure: $0.failure)
        })
        do {
            try OutputFile.write(report.xml, to: path)
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
