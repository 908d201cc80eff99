import Foundation
import Testing
import MapSimTesting
@testable import MapSim
@testable import MapSimKit
@testable import MapSimServe

/// `mapsim serve --scenario`: what of a scenario the server applies on the wall clock.
@Suite("ServeScenario")
struct ServeScenarioTests {
    @Test func offlineAndOnlineStepsHappenWhereTheAdvanceStepsPutThem() async throws {
        let scenario = try Scenario.parse("""
            style: https://maps.test/style.json
            mirror: {"https://maps.test/": ../styles/sample}
            network:
              profile: 3g
              seed: 7
              offline: [[20000, 21000]]
              faults:
                - {url: "*/tiles/*", status: 503, times: 1}
            steps:
              - load
              - wait: map-idle
              - advance: 1000
              - offline
              - camera: {zoom: 12}
              - advance: 2000
              - online
              - wait: map-idle
              - advance: 5000
              - offline
              - subscribe: a/b/+/+/+/+/occupancy
            """, name: "t", folder: SampleStyle.stylesFolder + "/../traces")
        let served = ServeScenario(scenario, extraFaults: [try #require(FaultRule(commandLine: "*/sprite*=drop"))])
        #expect(served.style == "https://maps.test/style.json")
        #expect(served.offlineWindows == [SimTime.seconds(1)..<SimTime.seconds(3), SimTime.seconds(8)..<ServeScenario.forever, SimTime.seconds(20)..<SimTime.seconds(21)])
        #expect(served.profile == "3g" && served.faultCount == 2)
        #expect(served.leftOut == ["load", "wait", "camera", "subscribe"])
        #expect(served.origin != nil)
        // The conditions decide as the windows say, on the server's clock (here a virtual one): a
        // drop while offline, the fault once, then the 3g round trip.
        let tile = Resource(url: "https://maps.test/tiles/1/0/0.pbf", kind: .tile)
        let loop = DriveLoop(machine: served.conditions.machine(), loads: NoLoads(), timing: ImmediateDelivery())
        var decided: [Int: (ServeConditionsMachine.Decision, SimTime)] = [:]
        for (number, time) in [(0, SimTime.seconds(2)), (1, .seconds(4)), (2, .seconds(5))] {
            await loop.run(until: time) { decided[$0.request] = ($0.decision, loop.now) }
            loop.feed(.request(number, tile, size: 10)) { decided[$0.request] = ($0.decision, loop.now) }
        }
        await loop.run(until: .seconds(6)) { decided[$0.request] = ($0.decision, loop.now) }
        guard case (.drop, .seconds(2))? = decided[0] else { Issue.record("offline at 2 s: \(String(describing: decided[0]))"); return }
        guard case (.status(503, _), let faulted)? = decided[1], faulted > .seconds(4) else { Issue.record("the fault at 4 s: \(String(describing: decided[1]))"); return }
        guard case (.answer, let answered)? = decided[2] else { Issue.record("online at 5 s: \(String(describing: decided[2]))"); return }
        #expect(answered - .seconds(5) >= SimTime.milliseconds(250), "the 3g round trip")
    }

    @Test func aScenarioOnTheOfflineProfileIsOfflineUntilItsFirstOnline() throws {
        let scenario = try Scenario.parse("""
            style: https://maps.test/style.json
            network: {profile: offline}
            steps:
              - load
              - advance: 1500
              - online
            """, name: "t", folder: "/tmp")
        let served = ServeScenario(scenario)
        #expect(served.offlineWindows == [SimTime.zero..<SimTime.milliseconds(1500)])
        #expect(served.origin == nil)
    }
}
