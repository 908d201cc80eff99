import Foundation
import Testing
import MapSimJSON
import MapSimTesting
import MapSimTrace
@testable import MapSim

/// `mapsim report`'s page, opened in headless Chromium and read as a person would: every request a
/// row, every milestone a line, filters that change the rows, a row that opens its event, the tiles,
/// no script error — and a trace of 100,000 requests that opens and scrolls.
@Suite("Report pages in a real browser", .serialized)
struct ReportPageTests {
    private func open(_ html: String, in folder: FixtureDirectory, named name: String = "report.html",
                      address: String = "") async throws -> (HeadlessBrowser, BrowserPage) {
        let path = try folder.write(name, html)
        let browser = try HeadlessBrowser.launch()
        do {
            let page = try await browser.open(URL(fileURLWithPath: path).absoluteString + address)
            try await page.wait(until: "document.body.dataset.ready === 'true'")
            return (browser, page)
        } catch {
            await browser.close()
            throw error
        }
    }

    private func count(_ selector: String, in page: BrowserPage) async throws -> Int {
        Int(try await page.evaluate("document.querySelectorAll(\(JSONWriter.string(.string(selector)))).length").numberValue ?? -1)
    }

    @Test func aLoadShowsEveryRequestMilestoneAndTileAndARowOpensItsEvent() async throws {
        let trace = await PageFixtures.sampleTrace(camera: CameraOptions(zoom: 10))
        let folder = try FixtureDirectory()
        let (browser, page) = try await open(ReportPage.html([TraceReport(name: "sample", trace: trace)]), in: folder)
        defer { Task { await browser.close() } }
        let byKind = PageFixtures.requestsByKind(trace)
        #expect(try await count("[data-kind]", in: page) == byKind.values.reduce(0, +))
        for (kind, requests) in byKind { #expect(try await count("[data-kind='\(kind)']", in: page) == requests, "\(kind)") }
        let milestones = trace.events.filter { [.styleLoaded, .mapLoaded, .mapIdle].contains($0.type) }
        #expect(try await count("[data-milestone]", in: page) == milestones.count)
        for type in ["style-loaded", "map-loaded", "map-idle"] { #expect(try await count("[data-milestone='\(type)']", in: page) >= 1, "\(type)") }
        // The critical path: highlighted rows, starting with the style.
        #expect(try await count(".row.critical", in: page) >= 2)
        #expect(try await page.evaluate("document.querySelector('.row.critical').dataset.kind") == .string("style"))
        // Tiles: a grid for zoom 10 and one for the tile prefetched four zooms below.
        #expect(try await page.evaluate("[...document.querySelectorAll('.tile-zoom figcaption')].map(c => c.textContent.split(' ')[0]).join(',')") == .string("z10,z6"))
        // A row opens its whole event.
        _ = try await page.evaluate("document.querySelector(\"[data-kind='glyphs']\").click()")
        let event = try await page.evaluate("document.querySelector('aside.details pre.event').textContent")
        #expect(event.stringValue?.contains("\"kind\": \"glyphs\"") == true && event.stringValue?.contains("0-255.pbf") == true)
        #expect(try await page.evaluate("location.hash").stringValue?.hasPrefix("#open=t1%3A") == true, "the open row is in the address")
        #expect(try await page.evaluate("document.querySelector('.facts').textContent").stringValue?.contains("maplibre-native") == true)
        #expect(page.errors.isEmpty, "\(page.errors)")
    }

    @Test func filtersAndSearchChangeTheRowsAndLiveInTheAddress() async throws {
        let trace = PageFixtures.syntheticTrace(requests: 300)
        let folder = try FixtureDirectory()
        let (browser, page) = try await open(ReportPage.html([TraceReport(name: "synthetic", trace: trace)]), in: folder)
        defer { Task { await browser.close() } }
        #expect(try await count("[data-kind]", in: page) == 300)
        // Unticking tiles leaves the style.
        _ = try await page.evaluate("document.querySelector(\"input[name=kind][value=tile]\").click()")
        #expect(try await count("[data-kind]", in: page) == 1)
        #expect(try await page.evaluate("location.hash") == .string("#kind=style"))
        _ = try await page.evaluate("document.querySelector(\"input[name=kind][value=tile]\").click()")
        // Errors only: the failed tiles, each highlighted.
        for outcome in ["ok", "not-modified", "no-content", "cancelled"] {
            _ = try await page.evaluate("document.querySelector(\"input[name=outcome][value='\(outcome)']\").click()")
        }
        let failures = trace.events.filter { if case .resourceRequest(let request) = $0.payload { request.outcome == .error } else { false } }.count
        let shown = try await count("[data-kind]", in: page)
        #expect(failures == 6 && shown == failures)
        #expect(try await count("[data-kind].outcome-error", in: page) == failures)
        // The search box narrows by path.
        try await page.navigate(try await page.evaluate("location.href.split('#')[0]").stringValue ?? "")
        try await page.wait(until: "document.body.dataset.ready === 'true' && document.querySelectorAll('[data-kind]').length === 300")
        _ = try await page.evaluate("const box = document.querySelector('input[type=search]'); box.value = 'tiles/14/57/'; box.dispatchEvent(new Event('input'))")
        #expect(try await count("[data-kind]", in: page) == 1)
        #expect(try await page.evaluate("document.querySelector('[data-kind] .c-path').textContent") == .string("tiles/14/57/0.pbf"))
        #expect(page.errors.isEmpty, "\(page.errors)")
    }

    @Test func aFilteredViewOpensFromItsAddress() async throws {
        let trace = PageFixtures.syntheticTrace(requests: 120)
        let folder = try FixtureDirectory()
        let (browser, page) = try await open(ReportPage.html([TraceReport(name: "synthetic", trace: trace)]), in: folder, address: "#outcome=cancelled&open=t1%3A10")
        defer { Task { await browser.close() } }
        #expect(try await count("[data-kind]", in: page) == 3, "requests 9, 59 and 109 were cancelled")
        try await page.wait(until: "document.querySelector('aside.details')")
        #expect(try await page.evaluate("document.querySelector('aside.details strong').textContent") == .string("Request 10 of synthetic"))
        #expect(page.errors.isEmpty, "\(page.errors)")
    }

    @Test func anAddressTypedByHandWithABarePercentStillOpens() async throws {
        let trace = PageFixtures.syntheticTrace(requests: 120)
        let folder = try FixtureDirectory()
        let (browser, page) = try await open(ReportPage.html([TraceReport(name: "synthetic", trace: trace)]), in: folder,
                                             address: "#q=50%&kind=tile%2Cstyle&x=%E2%82%AC%zz")
        defer { Task { await browser.close() } }
        #expect(try await page.evaluate("document.querySelector('input[type=search]').value") == .string("50%"))
        #expect(try await count("[data-kind]", in: page) == 0, "no path holds 50%")
        #expect(page.errors.isEmpty, "\(page.errors)")
    }

    @Test func twoThousandRequestsAreAllInThePageAndAHundredThousandScroll() async throws {
        let folder = try FixtureDirectory()
        let (browser, page) = try await open(ReportPage.html([TraceReport(name: "two thousand", trace: PageFixtures.syntheticTrace(requests: 2_000))]), in: folder)
        #expect(try await count("[data-kind]", in: page) == 2_000)
        await browser.close()

        let large = ReportPage.html([TraceReport(name: "a hundred thousand", trace: PageFixtures.syntheticTrace(requests: 100_000))])
        let clock = ContinuousClock()
        let started = clock.now
        let (bigBrowser, bigPage) = try await open(large, in: folder, named: "large.html")
        defer { Task { await bigBrowser.close() } }
        let opened = clock.now - started
        #expect(try await bigPage.evaluate("document.querySelector('.counter').textContent") == .string("100,000 requests"))
        let drawn = try await count("[data-kind]", in: bigPage)
        #expect(drawn > 0 && drawn < 500, "rows are drawn as they scroll into view: \(drawn)")
        _ = try await bigPage.evaluate("const s = document.querySelector('.scroller'); s.scrollTop = s.scrollHeight")
        try await bigPage.wait(until: "document.querySelector('[data-index=\"99999\"]')")
        // Filtering a hundred thousand rows answers at once too.
        _ = try await bigPage.evaluate("document.querySelector(\"input[name=outcome][value=ok]\").click()")
        #expect(try await bigPage.evaluate("document.querySelector('.counter').textContent") == .string("4,000 of 100,000 requests"))
        #expect(bigPage.errors.isEmpty, "\(bigPage.errors)")
        print("report of 100,000 requests: \(large.utf8.count) bytes, opened and drawn in \(opened)")
    }

    @Test func aServeRecordingAndSeveralTracesShareAPage() async throws {
        let sample = await PageFixtures.sampleTrace()
        let synthetic = PageFixtures.syntheticTrace(requests: 40)
        let folder = try FixtureDirectory()
        let (browser, page) = try await open(ReportPage.html([TraceReport(name: "a", trace: sample), TraceReport(name: "b", trace: synthetic)]), in: folder)
        defer { Task { await browser.close() } }
        let total = PageFixtures.requestsByKind(sample).values.reduce(0, +) + 40
        #expect(try await count("[data-kind]", in: page) == total)
        #expect(try await count("section.trace", in: page) == 2)
        #expect(page.errors.isEmpty, "\(page.errors)")
    }
}
