import Foundation
import Testing
import MapSimJSON
import MapSimKit
import MapSimTesting

/// `mapsim run --report DIR`'s pages in headless Chromium: the index names every scenario with its
/// status, and a failed scenario's page shows the golden and the new trace side by side.
@Suite("Suite pages in a real browser", .serialized)
struct SuitePageTests {
    /// Runs the scenario in `file` and compares it with its golden trace, as `mapsim run` does.
    private func entry(_ file: String) async throws -> SuiteReport.Entry {
        let scenario = try Scenario.read(file: file)
        let result = try await ScenarioRunner().run(scenario)
        let golden = GoldenTrace(scenarioFile: file, name: scenario.name)
        let problems = result.failures + golden.problems(with: result.trace, scenarioFile: file)
        return SuiteReport.Entry(scenario: scenario, seconds: 0.1, problems: problems, trace: result.trace, golden: golden.read())
    }

    @Test func theIndexLinksEveryScenarioAndAFailureShowsBothTracesSideBySide() async throws {
        let traces = SampleStyle.stylesFolder + "/../traces"
        let folder = try FixtureDirectory()
        // A scenario whose golden trace is another seed's: its requests arrive at other times.
        let scenario = try String(contentsOfFile: traces + "/cold-load.scenario.yaml", encoding: .utf8)
            .replacingOccurrences(of: "../styles/sample", with: SampleStyle.folder).replacingOccurrences(of: "seed: 1", with: "seed: 7")
        let failing = try folder.write("cold-load.scenario.yaml", scenario)
        _ = try folder.write("cold-load.trace.yaml", try String(contentsOfFile: traces + "/cold-load.trace.yaml", encoding: .utf8))
        let entries = [try await entry(traces + "/sprite-404.scenario.yaml"), try await entry(traces + "/3g-time-budget.scenario.yaml"),
                       try await entry(failing)]
        #expect(entries.map(\.passed) == [true, true, false])
        let report = SuiteReport(entries: entries)
        try report.write(to: folder.path + "/report")

        let browser = try HeadlessBrowser.launch()
        defer { Task { await browser.close() } }
        let index = try await browser.open(URL(fileURLWithPath: folder.path + "/report/index.html").absoluteString)
        try await index.wait(until: "document.body.dataset.ready === 'true'")
        #expect(try await index.evaluate("[...document.querySelectorAll('[data-scenario]')].map(e => e.dataset.scenario + '=' + e.dataset.status).join(' ')")
            == .string("sprite-404=passed 3g-time-budget=passed cold-load=failed"))
        #expect(try await index.evaluate("document.querySelectorAll('[data-status]').length") == .number(3))
        // Every scenario links its page, which exists.
        let links = try await index.evaluate("[...document.querySelectorAll('[data-scenario] a')].map(a => a.getAttribute('href'))").arrayValue?.compactMap(\.stringValue) ?? []
        #expect(links == ["sprite-404.html", "3g-time-budget.html", "cold-load.html"])
        for link in links { #expect(FileManager.default.fileExists(atPath: folder.path + "/report/" + link), "\(link)") }
        // The budgets of the 3G scenario, met.
        #expect(try await index.evaluate("document.querySelector(\"[data-scenario='3g-time-budget'] .budgets\").textContent").stringValue?.contains("budget map-idle") == true)
        _ = try await index.evaluate("document.querySelector('input[name=only-failed]').click()")
        #expect(try await index.evaluate("document.querySelectorAll('[data-scenario]').length") == .number(1))
        #expect(index.errors.isEmpty, "\(index.errors)")

        let failed = try await browser.open(URL(fileURLWithPath: folder.path + "/report/cold-load.html").absoluteString)
        try await failed.wait(until: "document.body.dataset.ready === 'true'")
        #expect(try await failed.evaluate("document.querySelectorAll('.side-by-side .pair.changed').length").numberValue ?? 0 > 0)
        #expect(try await failed.evaluate("document.querySelector('.differences').textContent").stringValue?.contains("seed: 1 in A, 7 in B") == true)
        // The new run's waterfall is there too, a row per request.
        let requests = entries[2].trace?.events.filter { $0.type == .resourceRequest }.count ?? 0
        #expect(try await failed.evaluate("document.querySelectorAll('[data-kind]').length") == .number(Double(requests)))
        #expect(failed.errors.isEmpty, "\(failed.errors)")
    }
}
