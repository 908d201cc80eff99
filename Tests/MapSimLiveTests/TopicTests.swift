import Testing
@testable import MapSimLive

@Suite("Live topics and criteria")
struct TopicTests {
    @Test func topicsHaveSevenNamedLevels() throws {
        let topic = try LiveTopic(parsing: "ds/venue/b1/f2/r3/loc-9/occupancy")
        #expect(topic.location == "loc-9" && topic.domainType == "occupancy" && topic.description == "ds/venue/b1/f2/r3/loc-9/occupancy")
        #expect(throws: LiveTopicError(.invalidTopic, topic: "ds/venue/b1", "it has 3 levels; a topic has 7: dataset/venue/building/floor/room/location/domainType")) {
            try LiveTopic(parsing: "ds/venue/b1")
        }
        #expect(throws: LiveTopicError(.invalidTopic, topic: "ds//b/f/r/l/d", "level 2 (venue) is empty")) { try LiveTopic(parsing: "ds//b/f/r/l/d") }
        #expect(throws: LiveTopicError.self) { try LiveTopic(parsing: "ds/v/b/f/r/+/occupancy") }
    }

    @Test func aWildcardCharacterOrNULInsideALevelIsNoTopicName() {
        #expect(throws: LiveTopicError(.invalidTopic, topic: "ds/v/b/f/r/e+/occupancy", "level 6 (location) holds +, which an MQTT topic name cannot")) {
            try LiveTopic(parsing: "ds/v/b/f/r/e+/occupancy")
        }
        #expect(throws: LiveTopicError.self) { try LiveTopic(parsing: "ds/v/b/f/r/l/occ#") }
        #expect(throws: LiveTopicError.self) { try LiveTopic(parsing: "ds/v/b/f/r/l\0x/occupancy") }
    }

    @Test func criteriaMatchWithWildcards() throws {
        let occupancy = try TopicCriteria(parsing: "ds/venue/+/+/+/+/occupancy")
        let room = try LiveTopic(parsing: "ds/venue/b1/f2/r3/loc-9/occupancy")
        let position = try LiveTopic(parsing: "ds/venue/b1/f2/r3/loc-9/position")
        let elsewhere = try LiveTopic(parsing: "other/venue/b1/f2/r3/loc-9/occupancy")
        #expect(occupancy.matches(room) && !occupancy.matches(position) && !occupancy.matches(elsewhere))
        let dataset = try TopicCriteria(parsing: "ds/#")
        let co2 = try LiveTopic(parsing: "ds/v/b1/f/r/l/co2")
        let otherBuilding = try LiveTopic(parsing: "ds/v/b2/f/r/l/co2")
        #expect(dataset.mqttFilter == "ds/#" && dataset.matches(co2) && dataset.matches(otherBuilding))
        let building = try TopicCriteria(parsing: "ds/+/b1/#")
        #expect(building.mqttFilter == "ds/+/b1/#" && building.matches(co2) && !building.matches(otherBuilding))
        #expect(TopicCriteria(dataset: "ds", domainType: "position").mqttFilter == "ds/+/+/+/+/+/position")
    }

    @Test func malformedCriteriaSayWhy() {
        #expect(throws: LiveTopicError(.invalidCriteria, topic: "ds/#/x", "# may only be the last level")) { try TopicCriteria(parsing: "ds/#/x") }
        #expect(throws: LiveTopicError(.invalidCriteria, topic: "+/v/b/f/r/l/d", "criteria must name their dataset")) { try TopicCriteria(parsing: "+/v/b/f/r/l/d") }
        #expect(throws: LiveTopicError(.invalidCriteria, topic: "ds/v/b", "it has 3 levels; criteria have 7 (use + for any value, or end with #)")) {
            try TopicCriteria(parsing: "ds/v/b")
        }
        #expect(throws: LiveTopicError.self) { try TopicCriteria(parsing: "ds/v+/b/f/r/l/d") }
        #expect(throws: LiveTopicError.self) { try TopicCriteria(parsing: "ds/v/b/f/r/l/d/e/#") }
        #expect(throws: LiveTopicError.self) { try TopicCriteria(parsing: "") }
    }
}

@Suite("Live updates")
struct LiveUpdateTests {
    private let topic = LiveTopic(dataset: "ds", venue: "v", building: "b", floor: "f", room: "r", location: "room-12", domainType: "occupancy")

    @Test func payloadsReadAndWrite() throws {
        let update = try LiveUpdate(topic: topic, payload: Array(#"{"timestamp": "2026-11-23T10:15:00.25+01:00", "properties": {"count": "3"}}"#.utf8))
        #expect(update.id == "room-12" && update.properties == ["count": "3"])
        #expect(update.timestamp == 1_795_425_300_250_000)
        #expect(try LiveUpdate(topic: topic, payload: update.payload) == update)
        #expect(ISO8601Timestamp.string(update.timestamp) == "2026-11-23T09:15:00.25Z")
    }

    @Test func badPayloadsSayWhy() {
        for (payload, reason) in [("not json", "the payload is not JSON"), ("[]", "the payload is not a JSON object"),
                                  (#"{"timestamp": 5}"#, "\"timestamp\" is missing or not a string"),
                                  (#"{"timestamp": "2026-11-23 10:15"}"#, "is not an ISO 8601 date and time with a time zone"),
                                  (#"{"timestamp": "2026-11-23T10:15:00Z", "properties": {"n": [3]}}"#, "property \"n\" is not a string, a number or a boolean")] {
            #expect(throws: LiveUpdateError.self, "\(payload)") { try LiveUpdate(topic: topic, payload: Array(payload.utf8)) }
            do {
                _ = try LiveUpdate(topic: topic, payload: Array(payload.utf8))
            } catch {
                #expect(error.reason.contains(reason), "\(error.reason)")
            }
        }
    }

    @Test func numericAndBooleanPropertiesAreTheirJSONText() throws {
        let topic = try LiveTopic(parsing: "ds/v/b/f/r/l/occupancy")
        let update = try LiveUpdate(topic: topic, payload: Array(#"{"timestamp": "2026-11-23T10:15:00Z", "properties": {"count": 3, "ratio": 0.5, "occupied": true, "state": "busy"}}"#.utf8))
        #expect(update.properties == ["count": "3", "ratio": "0.5", "occupied": "true", "state": "busy"])
    }

    @Test func theNewestTimestampWins() {
        var store = LiveStore()
        let newer = LiveUpdate(topic: topic, id: "a", timestamp: 2_000, properties: ["occupied": "true"])
        let older = LiveUpdate(topic: topic, id: "a", timestamp: 1_000, properties: ["occupied": "false"])
        let first = store.apply(newer)
        let second = store.apply(older)
        #expect(first && !second)
        #expect(store.update(id: "a", domainType: "occupancy") == newer)
        var other = topic
        other.domainType = "co2"
        let applied = store.apply(LiveUpdate(topic: other, id: "a", timestamp: 1, properties: [:]))
        #expect(applied && store.count == 2)
    }
}
