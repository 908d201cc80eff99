import Foundation
import Testing
import MapSimJSON
import MapSimLive
import MapSimTesting

/// `mapsim live listen|publish` and `mapsim load --live`, against a real Mosquitto.
@Suite("CLI.live", .serialized)
struct LiveCommandTests {
    private func retained(_ port: Int, username: String? = nil, password: String? = nil, _ topics: [String]) async throws {
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: port, options: .init(clientID: "p", username: username, password: password.map { Array($0.utf8) }))
        for topic in topics {
            try await publisher.publish(topic, payload: Array(#"{"timestamp": "2026-11-24T09:00:00Z", "properties": {"state": "busy"}}"#.utf8), qos: 1, retain: true)
        }
        await publisher.disconnect()
    }

    @Test func listenPrintsWhatMatchesForItsDurationAndLogsIn() async throws {
        let broker = try MosquittoBroker(users: ["ops": "s3cret"])
        defer { broker.stop() }
        try await retained(broker.port, username: "ops", password: "s3cret", ["acme/hq/b/1/r/room-1/occupancy", "other/hq/b/1/r/room-2/occupancy"])
        let folder = try FixtureDirectory()
        let passwordFile = try folder.write("password", "s3cret\n")
        let events = folder.path + "/events.jsonl"
        let result = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#", "--username", "ops",
                                                  "--password-file", passwordFile, "--count", "1", "--for", "60s", "--json", "--events", events])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.ran < .seconds(30), "--count ends at the first message, long before --for: \(result.ran)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(#""type":"live-update""#) }.count == 1)
        #expect(lines.contains { $0.contains("room-1") } && !lines.contains { $0.contains("room-2") }, "what matches, nothing else")
        #expect(try String(contentsOfFile: events, encoding: .utf8) == result.standardOutput, "--events writes the lines --json prints")

        let nothing = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "none/#", "--username", "ops",
                                                   "--password-file", passwordFile, "--count", "1", "--for", "300ms", "--json"])
        #expect(nothing.status == 0 && !nothing.standardOutput.contains("live-update"), "\(nothing.standardError)")
        #expect(nothing.ran >= .milliseconds(300) && nothing.ran < .seconds(30), "--for ends on time when --count is not reached: \(nothing.ran)")
    }

    /// `mapsim live listen --json | head -1` ends once `head` has its line: the next line written
    /// finds no reader and ends the process as SIGPIPE does. It used to listen on for ever (here,
    /// for the whole --for), printing into the closed pipe.
    @Test func listenEndsWhenItsReaderHasGone() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        try await retained(broker.port, ["acme/hq/b/1/r/room-1/occupancy"])
        let result = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#", "--for", "60s", "--json"],
                                                 readerGone: true)
        #expect(result.signal == SIGPIPE && result.standardError.isEmpty, "\(result.status) \(result.standardError)")
        #expect(result.ran < .seconds(30), "it ends at its first line, not at --for: \(result.ran)")
    }

    @Test func aWrongPasswordOrNoBrokerIsExit69AndABadTopicIs64() async throws {
        let broker = try MosquittoBroker(users: ["ops": "s3cret"])
        defer { broker.stop() }
        let folder = try FixtureDirectory()
        let wrong = try folder.write("password", "guess\r\n")
        let refused = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#", "--username", "ops", "--password-file", wrong])
        #expect(refused.status == 69 && refused.standardError.contains("refused the connection: not authorized"), "\(refused.standardError)")
        let port = broker.port
        broker.stop()
        let gone = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(port)", "--criteria", "acme/#"])
        #expect(gone.status == 69 && gone.standardError.contains("Connection refused"), "\(gone.standardError)")
        let malformed = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(port)", "--criteria", "acme/+/x"])
        #expect(malformed.status == 64 && malformed.standardError.contains("it has 3 levels"), "\(malformed.standardError)")
        let badPublish = try await CommandRunner.run(["live", "publish", "mqtt://127.0.0.1:\(port)", "acme/#/b/c/d/e/f", "--property", "a=b"])
        #expect(badPublish.status == 64)
    }

    @Test func publishSendsAnUpdateThatListenersRead() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let reader = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "reader"))
        _ = try await reader.subscribe(["acme/#"])
        let result = try await CommandRunner.run(["live", "publish", "mqtt://127.0.0.1:\(broker.port)", "acme/hq/main/1/r101/room-101/occupancy",
                                                  "--property", "state=busy", "--property", "count=4", "--timestamp", "2026-11-24T09:00:00+01:00", "--qos", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        var iterator = reader.messages.makeAsyncIterator()
        let message = try #require(await iterator.next())
        let update = try LiveUpdate(topic: try LiveTopic(parsing: message.topic), payload: message.payload)
        #expect(update.id == "room-101" && update.properties == ["state": "busy", "count": "4"])
        #expect(ISO8601Timestamp.string(update.timestamp) == "2026-11-24T08:00:00Z")
        await reader.disconnect()
    }

    @Test func loadReplaysARecordingIntoTheStyleTheSameWayEveryRun() async throws {
        let folder = try FixtureDirectory()
        let recording = try folder.write("recorded.jsonl", """
        {"type":"live-state-changed","begin":90,"end":90,"data":{"state":"connecting","previous":"closed"}}
        {"type":"live-update","begin":100000,"end":100000,"data":{"topic":"acme/hq/main/1/r101/room-101/occupancy","id":"room-101","timestamp":"2026-11-24T09:00:00Z","properties":{"state":"busy"}}}
        {"type":"live-update","begin":400000,"end":400000,"data":{"topic":"acme/hq/main/1/r102/room-102/occupancy","id":"room-102","timestamp":"2026-11-24T09:00:01Z","properties":{"state":"cleaning"}}}

        """)
        func run() async throws -> CommandRunner.Result {
            try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=\(recording)", "--events", "-", "--quiet"])
        }
        let first = try await run()
        #expect(first.status == 0, "\(first.standardError)")
        let types = first.standardOutput.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8))["type"]?.stringValue }
        #expect(types.filter { $0 == "live-update" }.count == 2)
        #expect(first.standardOutput.contains(#""data-id":"live-2""#))
        #expect(first.standardOutput.contains(#"{"type":"style-image-missing","begin":750000,"end":750000,"data":{"id":"room-cleaning"}}"#))
        #expect(try await run().standardOutput == first.standardOutput)
        let broken = try folder.write("broken.jsonl", "{\"type\": \"live-update\"}\n")
        let refused = try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=\(broken)"])
        #expect(refused.status == 64 && refused.standardError.contains("broken.jsonl:1"), "\(refused.standardError)")
    }

    @Test func anUnknownLiveSourceIsAUsageErrorAndFailedUpdatesAreErrors() async throws {
        let folder = try FixtureDirectory()
        let recording = try folder.write("recorded.jsonl", """
        {"type":"live-update","begin":100000,"end":100000,"data":{"topic":"acme/hq/main/1/r101/room-101/occupancy","id":"room-101","timestamp":"2026-11-24T09:00:00Z","properties":{"state":"busy"}}}

        """)
        let unknown = try await CommandRunner.run(["load", "styles/live/style.json", "--live", "nosuch=\(recording)"])
        #expect(unknown.status == 64 && unknown.standardError.contains(#"no GeoJSON source "nosuch""#) && unknown.standardError.contains("rooms"),
                "\(unknown.standardError)")
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "p"))
        try await publisher.publish("acme/hq/main/1/r101/room-101/occupancy", payload: Array(#"{"properties": {"state": "busy"}}"#.utf8), qos: 1, retain: true)
        await publisher.disconnect()
        let failed = try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#",
                                                  "--count", "1", "--for", "60s"])
        #expect(failed.status == 1 && failed.standardOutput.contains("live-error: invalid update") && !failed.standardOutput.contains("errors         none"),
                "\(failed.standardOutput)\(failed.standardError)")
    }
}

/// `mapsim load --live-domain`: live data that follows the view, over a real Mosquitto and a recording.
@Suite("CLI.live.followsTheView", .serialized)
struct LiveDomainCommandTests {
    private func lines(_ output: String, _ type: String) -> [JSONValue] {
        output.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }.filter { $0["type"]?.stringValue == type }
    }

    @Test func aRealBrokerGetsOnlyTheSubscriptionsOfWhatIsInViewOnTheFloorShown() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "p"))
        for topic in ["acme/hq/main/1/r101/room-101/occupancy", "acme/hq/main/2/r201/room-201/occupancy", "acme/hq/annex/1/ra101/room-a101/occupancy"] {
            try await publisher.publish(topic, payload: Array(#"{"timestamp": "2026-11-24T09:00:00Z", "properties": {"state": "busy"}}"#.utf8), qos: 1, retain: true)
        }
        await publisher.disconnect()
        for (floor, criteria, id) in [(nil, "acme/hq/main/1/+/+/occupancy", "room-101"), ("2", "acme/hq/main/2/+/+/occupancy", "room-201")] {
            let result = try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=mqtt://127.0.0.1:\(broker.port)",
                                                      "--live-domain", "occupancy", "--count", "1", "--for", "60s", "--events", "-", "--quiet"]
                                                     + (floor.map { ["--floor", $0] } ?? []))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(lines(result.standardOutput, "live-subscribed").map { $0["data"]?["criteria"]?.stringValue } == [criteria])
            #expect(lines(result.standardOutput, "live-update").map { $0["data"]?["id"]?.stringValue } == [id], "the annex is out of view")
            #expect(lines(result.standardOutput, "live-locations-updated").map { $0["data"]?["ids"] } == [.array([.string(id)])])
            #expect(result.standardOutput.contains(#""id":"live-occupancy-busy""#) == false, "the sprite has the state's icon")
        }
    }

    @Test func aRecordingReplaysOnlyWhatTheViewSubscribesTheSameWayEveryRun() async throws {
        let folder = try FixtureDirectory()
        let recording = try folder.write("recorded.jsonl", """
        {"type":"live-update","begin":100000,"end":100000,"data":{"topic":"acme/hq/main/1/r101/room-101/occupancy","id":"room-101","timestamp":"2026-11-24T09:00:00Z","properties":{"state":"cleaning"}}}
        {"type":"live-update","begin":200000,"end":200000,"data":{"topic":"acme/hq/annex/1/ra101/room-a101/occupancy","id":"room-a101","timestamp":"2026-11-24T09:00:00Z","properties":{"state":"busy"}}}

        """)
        func run(_ extra: [String]) async throws -> CommandRunner.Result {
            try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=\(recording)", "--events", "-", "--quiet"] + extra)
        }
        let first = try await run(["--live-domain", "occupancy"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(lines(first.standardOutput, "live-update").map { $0["data"]?["id"]?.stringValue } == ["room-101"])
        let missing = lines(first.standardOutput, "style-image-missing").compactMap { $0["data"]?["id"]?.stringValue }
        #expect(missing.contains("live-occupancy-cleaning"))
        #expect(try await run(["--live-domain", "occupancy"]).standardOutput == first.standardOutput)
        let summary = try await CommandRunner.run(["load", "styles/live/style.json", "--live", "rooms=\(recording)", "--live-domain", "occupancy", "--quiet"])
        #expect(summary.standardOutput.contains("live           1 update, 1 location updated\n  subscribed   acme/hq/main/1/+/+/occupancy\n"),
                "\(summary.standardOutput)")
        let venue = try await run(["--live-domain", "occupancy", "--center", "12.5713,55.676", "--zoom", "15"])
        #expect(lines(venue.standardOutput, "live-update").count == 2, "zoomed out to the venue, both buildings are subscribed")
        let renamed = try await run(["--live-domain", "occupancy", "--location-fields", "building=nosuch"])
        #expect(lines(renamed.standardOutput, "live-subscribed").isEmpty, "no feature has the building property named: no location, no subscription")
    }

    @Test func followingTheViewNeedsLiveDataAndOneTopicLevel() async throws {
        let wrong: [[String]] = [["--live-domain", "occupancy"], ["--live", "rooms=mqtt://127.0.0.1:1", "--live-domain", "a/b"],
                                 ["--live", "rooms=mqtt://127.0.0.1:1", "--floor", "2"],
                                 ["--live", "rooms=mqtt://127.0.0.1:1", "--live-domain", "occupancy", "--location-fields", "storey=level"]]
        for arguments in wrong {
            let result = try await CommandRunner.run(["load", "styles/live/style.json"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
    }
}

/// `mapsim live replay`.
@Suite("CLI.live.replay")
struct LiveReplayCommandTests {
    @Test func replaysTheSampleFeedAndEndsWithTheSummaryObject() async throws {
        let result = try await CommandRunner.run(["live", "replay", "styles/entities/vessels.jsonl", "--track-id-field", "MMSI",
                                                  "--max-observations-per-track", "2", "--filter", #"[">", ["get", "SOG"], 0]"#, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map { try? JSONParser.parse(Array($0.utf8)) }
        #expect(lines.first??["malformed"]?["line"] == .number(35))
        let summary = try #require(lines.last ?? nil)
        #expect(summary["observations"] == .object(JSONObject([("received", .number(48)), ("purged", .number(32)), ("kept", .number(16))])))
        #expect(summary["entities"] == .object(JSONObject([("received", .number(8)), ("purged", .number(0)), ("kept", .number(8))])))
        #expect(summary["filtered-out"] == .number(12) && summary["malformed"] == .number(1))
        #expect((summary["peak-memory-bytes"]?.numberValue ?? 0) > 0)
    }

    @Test func readsALiveWebSocketFeedForItsDuration() async throws {
        let lines = (0..<7).map { #"{"geometry": {"x": 12.5, "y": 55.\#($0)}, "attributes": {"MMSI": \#($0 % 2)}}"# }
        let server = try await WebSocketFeedServer.start(batches: [lines])
        // Seven messages on loopback take milliseconds: --count ends the read at the seventh; --for
        // is only a bound for a machine that never gets them.
        let result = try await CommandRunner.run(["live", "replay", server.url, "--track-id-field", "MMSI", "--count", "7", "--for", "60s", "--json"])
        #expect(result.ran < .seconds(30), "--count ends the read, not --for")
        await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try JSONParser.parse(Array((result.standardOutput.split(separator: "\n").last ?? "").utf8))
        #expect(summary["observations"]?["received"] == .number(7) && summary["entities"]?["kept"] == .number(2))
        let refused = try await CommandRunner.run(["live", "replay", "ws://127.0.0.1:\(server.port)/feed", "--track-id-field", "MMSI"])
        #expect(refused.status == 69 && refused.standardError.contains("Connection refused"), "\(refused.standardError)")
    }

    @Test func aMalformedLineStopsAStrictReplayAndAMissingFileIs2() async throws {
        let strict = try await CommandRunner.run(["live", "replay", "styles/entities/vessels.jsonl", "--track-id-field", "MMSI", "--strict"])
        #expect(strict.status == 65 && strict.standardError.contains("vessels.jsonl:35:"), "\(strict.standardError)")
        let missing = try await CommandRunner.run(["live", "replay", "no/such.jsonl", "--track-id-field", "MMSI"])
        #expect(missing.status == 2 && missing.standardError.contains("no/such.jsonl"))
        let badFilter = try await CommandRunner.run(["live", "replay", "styles/entities/vessels.jsonl", "--track-id-field", "MMSI", "--filter", #"["nope"]"#])
        #expect(badFilter.status == 64)
    }

    @Test func eventsRecordEveryObservationAndPurgeTheSameWayEveryRun() async throws {
        let folder = try FixtureDirectory()
        func run(_ name: String) async throws -> String {
            let path = folder.path + "/" + name
            let result = try await CommandRunner.run(["live", "replay", "styles/entities/vessels.jsonl", "--track-id-field", "MMSI",
                                                      "--max-observations", "10", "--events", path])
            #expect(result.status == 0)
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        let first = try await run("a.jsonl")
        #expect(first.components(separatedBy: "dynamic-entity-observation-purged").count - 1 == 50)
        #expect(try await run("b.jsonl") == first)
    }

    @Test func numbersOutsideTheirDocumentedRangesAreUsageErrorsNotTraps() async throws {
        for arguments in [["--speed", "1e-300"], ["--speed", "nan"], ["--max-duration", "1e300"], ["--max-duration", "-1"]] {
            let result = try await CommandRunner.run(["live", "replay", "styles/entities/vessels.jsonl", "--track-id-field", "MMSI"] + arguments)
            #expect(result.status == 64 && result.standardError.contains(arguments[0]), "\(arguments): \(result.status) \(result.standardError)")
        }
    }

    @Test func sigtermAndSighupWriteWhatWasReceivedAsItCameAndExit143And129() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, 129)] {
            let folder = try FixtureDirectory()
            let events = folder.path + "/events.jsonl"
            let listen = try RunningCommand(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#", "--json", "--events", events])
            try await listen.waitForLines { $0.contains { $0.contains(#""type":"live-subscribed""#) } }
            let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "p\(signal)"))
            for room in 1...3 {
                try await publisher.publish("acme/hq/b/1/r/room-\(room)/occupancy", payload: Array(#"{"timestamp": "2026-11-24T09:00:00Z", "properties": {"state": "busy"}}"#.utf8), qos: 1)
            }
            await publisher.disconnect()
            // Through a pipe, each line as it comes; and the recording can be followed (tail -f).
            try await listen.waitForLines { $0.count { $0.contains(#""type":"live-update""#) } == 3 }
            let followed = try String(contentsOfFile: events, encoding: .utf8)
            #expect(followed.components(separatedBy: #""type":"live-update""#).count - 1 == 3)
            listen.send(signal)
            let (exit, standardError) = await listen.wait()
            #expect(exit == status, "\(standardError)")
            let written = try String(contentsOfFile: events, encoding: .utf8)
            #expect(written.components(separatedBy: #""type":"live-update""#).count - 1 == 3)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["events.jsonl"], "no temporary file left behind")
        }
    }

    @Test func aFeedWithNoValidLineIsStillReportedAndStrictAndADirectoryIsNoFeed() async throws {
        let folder = try FixtureDirectory()
        let bad = try folder.write("bad.jsonl", "bad\n{\"geometry\": {}}\n")
        let lenient = try await CommandRunner.run(["live", "replay", bad, "--track-id-field", "MMSI"])
        #expect(lenient.status == 0 && lenient.standardError.contains("bad.jsonl:1: skipped") && lenient.standardError.contains("bad.jsonl:2: skipped"),
                "\(lenient.standardError)")
        let strict = try await CommandRunner.run(["live", "replay", bad, "--track-id-field", "MMSI", "--strict"])
        #expect(strict.status == 65 && strict.standardError.contains("bad.jsonl:1: not JSON"), "\(strict.standardError)")
        let directory = try await CommandRunner.run(["live", "replay", folder.path, "--track-id-field", "MMSI"])
        #expect(directory.status == 2 && directory.standardError.contains("is a directory"), "\(directory.standardError)")
    }

    @Test func twoListenersOnOneBrokerDoNotLogEachOtherOut() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let listeners = try (0..<2).map { _ in try RunningCommand(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#", "--json"]) }
        for listener in listeners { try await listener.waitForLines { $0.contains { $0.contains(#""type":"live-subscribed""#) } } }
        let publisher = try await MQTTClient.connect(host: "127.0.0.1", port: broker.port, options: .init(clientID: "publisher"))
        try await publisher.publish("acme/hq/b/1/r/room-1/occupancy", payload: Array(#"{"timestamp": "2026-11-24T09:00:00Z", "properties": {"state": "busy"}}"#.utf8), qos: 1)
        await publisher.disconnect()
        for listener in listeners {
            try await listener.waitForLines { $0.contains { $0.contains(#""type":"live-update""#) } }
            listener.send(SIGINT)
            let (status, standardError) = await listener.wait()
            #expect(status == 0, "\(standardError)")
        }
        let named = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "acme/#", "--client-id", ""])
        #expect(named.status == 64 && named.standardError.contains("--client-id"))
    }

    @Test func listenEndsWith69NamingTheRefusalsWhenEveryCriteriaIsRefused() async throws {
        let broker = try MosquittoBroker(deniedSubscriptions: ["secret/#", "private/#"])
        defer { broker.stop() }
        let refused = try await CommandRunner.run(["live", "listen", "mqtt://127.0.0.1:\(broker.port)", "--criteria", "secret/#", "--criteria", "private/#"])
        #expect(refused.status == 69 && refused.standardError.contains("refused every criteria") && refused.standardError.contains("secret/#")
                && refused.standardError.contains("private/#"), "\(refused.standardError)")
    }
}
