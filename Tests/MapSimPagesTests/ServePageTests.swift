import Crypto
import Foundation
import Synchronization
import Testing
import MapSimJSON
import MapSimTesting
@testable import MapSim
@testable import MapSimHTTP
@testable import MapSimServe

/// `mapsim serve`'s page at /_mapsim/, in headless Chromium: the map preview drawn by the vendored
/// MapLibre GL JS, the conditions, and the requests served — a new one shows without a reload.
@Suite("The serve page in a real browser", .serialized)
struct ServePageTests {
    @Test func thePageShowsTheMapTheConditionsAndEachRequestAsItIsServed() async throws {
        // Every tile fails: GL JS draws no frame after a failed tile, so the preview loads only because
        // the page redraws on an error (without it, it stayed loading in one run of two).
        let served = Mutex<[String]>([])
        let conditions = ServeConditions(profile: NetworkPreset.lan.profile(seed: 1), profileName: "lan",
                                         faults: [FaultRule(commandLine: "*/tiles/*=503")!])
        let server = try await StyleServer.start(.init(style: SampleStyle.folder + "/style.json", port: 0, conditions: conditions)) { event in
            if case .resourceRequest(let request) = event.payload { served.withLock { $0.append(request.request.url) } }
        }
        // The client waits as long as the suite may keep its task from running: with every test
        // running at once on two cores, a body not read for 30 s (the default) would time out.
        let network = HTTPResourceLoader(options: .init(readTimeout: .seconds(300)))
        let page = await network.load(Resource(url: server.baseURL + "_mapsim/", kind: .unknown))
        #expect(page.error == nil && String(decoding: page.data ?? [], as: UTF8.self).hasPrefix("<!doctype html>"), "\(page.error?.message ?? "no body")")
        #expect(served.withLock { $0 }.isEmpty, "the page's own requests are not served resources")

        let browser = try HeadlessBrowser.launch()
        let tab = try await browser.open(server.baseURL + "_mapsim/")
        try await tab.wait(until: "document.body.dataset.ready === 'true'")
        try await tab.wait(until: "document.getElementById('preview').dataset.preview === 'loaded'")
        #expect(try await tab.evaluate("document.querySelector('.facts').textContent").stringValue?.contains("*/tiles/*=503") == true)
        #expect(try await tab.evaluate("Number(document.body.dataset.refreshMs)").numberValue ?? 10_000 <= 1_000)
        // The preview's own requests, each a row once served (its faulty tiles among them).
        try await tab.wait(until: "document.querySelectorAll('[data-kind]').length >= \(served.withLock { $0.count }) && document.querySelectorAll('[data-kind=tile]').length >= 4")
        #expect(try await tab.evaluate("document.querySelectorAll('[data-kind].outcome-error').length").numberValue ?? 0 >= 1)
        // A request served now shows without a reload (the preview may still be asking for its own).
        _ = await network.load(Resource(url: server.baseURL + "sprite.json?from=test", kind: .spriteJSON))
        let shown = try await tab.wait(until: "[...document.querySelectorAll('[data-kind=sprite-json] .c-path')].some(p => p.textContent === 'sprite.json?from=test')")
        #expect(served.withLock { $0 }.filter { $0.hasSuffix("sprite.json?from=test") }.count == 1)
        print("a request served showed on the page after \(shown)")
        let errors = tab.errors.filter { !$0.contains("503") }
        #expect(errors.isEmpty, "\(errors)")
        await browser.close()
        try await network.shutdown()
        await server.stop()
    }

    @Test func theVendoredLibraryIsMapLibreGLJSAsReleased() {
        let digest = SHA256.hash(data: Array(MapLibreGL.script.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(digest == "45a9b07a9189ce56054c620a947ccf41e291e58c95e9b61533b740aaa65ee5cb", "dist/maplibre-gl.js of maplibre-gl@5.24.0")
        #expect(MapLibreGL.licence.hasPrefix("Copyright (c) 2020, MapLibre") && MapLibreGL.licence.contains("Neither the name of MapLibre GL JS"))
    }
}
