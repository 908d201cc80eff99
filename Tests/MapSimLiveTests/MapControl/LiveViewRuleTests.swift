import Testing
import MapSim
import MapSimJSON
import MapSimStyle
@testable import MapSimLive

/// Which criteria what is in view needs, and where locations are.
@Suite("LiveViewRule")
struct LiveViewRuleTests {
    private func location(_ id: String, building: String = "main", floor: String = "1", room: String? = nil, at longitude: Double) -> LiveLocation {
        LiveLocation(id: id, dataset: "acme", venue: "hq", building: building, floor: floor, room: room ?? "r-\(id)",
                     anchor: LngLat(longitude: longitude, latitude: 55.676))
    }

    /// A 512×512 view at zoom 18 over 12.5676: it spans about 12.5669…12.5683.
    private func view(floor: String = "1", center: Double = 12.5676, zoom: Double = 18, bearing: Double = 0) -> LiveView {
        LiveView(camera: Camera(center: LngLat(longitude: center, latitude: 55.676), zoom: zoom, bearing: bearing), viewport: Viewport(width: 512, height: 512),
                 floor: floor)
    }

    @Test func aFloorMoreThanHalfInViewIsOneCriteriaElseOnePerLocationInView() {
        let floor = [location("a", at: 12.5672), location("b", at: 12.5674), location("c", at: 12.5690), location("d", at: 12.5692)]
        // Two of four in view: not more than half, so each location in view.
        #expect(LiveViewRule.criteria(for: floor, in: view(), domain: "occupancy").map(\.mqttFilter)
                == ["acme/hq/main/1/r-a/a/occupancy", "acme/hq/main/1/r-b/b/occupancy"])
        // Three of four: the floor.
        let more = floor + [location("e", at: 12.5675)]
        #expect(LiveViewRule.criteria(for: more, in: view(), domain: "occupancy").map(\.mqttFilter) == ["acme/hq/main/1/+/+/occupancy"])
    }

    @Test func onlyTheFloorShownCountsAndALocationWithoutARoomMatchesAnyRoom() {
        let locations = [location("up", floor: "2", at: 12.5672), location("cart", room: nil, at: 12.5672), location("far", at: 12.58),
                         location("far2", at: 12.581)]
        var cart = locations[1]
        cart.room = nil
        let criteria = LiveViewRule.criteria(for: [locations[0], cart, locations[2], locations[3]], in: view(), domain: "position")
        #expect(criteria.map(\.mqttFilter) == ["acme/hq/main/1/+/cart/position"])
        #expect(LiveViewRule.criteria(for: locations, in: view(floor: "2"), domain: "position").map(\.mqttFilter) == ["acme/hq/main/2/+/+/position"])
        #expect(LiveViewRule.criteria(for: locations, in: view(floor: "3"), domain: "position").isEmpty)
    }

    @Test func eachBuildingsFloorIsDecidedOnItsOwn() {
        let locations = [location("m1", at: 12.5672), location("m2", at: 12.5674), location("x1", building: "annex", at: 12.5673),
                         location("x2", building: "annex", at: 12.60), location("x3", building: "annex", at: 12.61)]
        #expect(LiveViewRule.criteria(for: locations, in: view(), domain: "occupancy").map(\.mqttFilter)
                == ["acme/hq/annex/1/r-x1/x1/occupancy", "acme/hq/main/1/+/+/occupancy"])
    }

    @Test func theViewTurnsWithTheBearingAndWrapsAroundTheAntimeridian() {
        let wide = LiveView(camera: Camera(center: LngLat(longitude: 179.999, latitude: 0), zoom: 16), viewport: Viewport(width: 512, height: 512), floor: "1")
        #expect(wide.contains(LngLat(longitude: -179.999, latitude: 0)))
        #expect(!wide.contains(LngLat(longitude: -179.9, latitude: 0)))
        // A point right of the centre along the x axis is out of a tall narrow view, and in once it turns 90°.
        let narrow = Viewport(width: 100, height: 1000)
        let east = LngLat(longitude: 12.5676 + 0.001, latitude: 55.676)
        #expect(!LiveView(camera: Camera(center: LngLat(longitude: 12.5676, latitude: 55.676), zoom: 18), viewport: narrow, floor: "1").contains(east))
        #expect(LiveView(camera: Camera(center: LngLat(longitude: 12.5676, latitude: 55.676), zoom: 18, bearing: 90), viewport: narrow, floor: "1").contains(east))
    }

    @Test func theDefaultFloorIsTheLowestNumberBeforeAnyName() {
        func floors(_ names: [String]) -> String? {
            LiveView.defaultFloor(of: names.map { location($0, floor: $0, at: 0) })
        }
        #expect(floors(["10", "2", "-1"]) == "-1")
        #expect(floors(["G", "10", "2"]) == "2")
        #expect(floors(["M", "G"]) == "G")
        #expect(floors([]) == nil)
    }

    @Test func locationsAreFeaturesWithAnIDAndEveryLevelUnderTheFieldNamesGiven() throws {
        func feature(_ id: JSONValue?, _ properties: [(String, JSONValue)]) -> SourceFeature {
            SourceFeature(id: id, properties: JSONObject(properties), anchor: LngLat(longitude: 1, latitude: 2))
        }
        let place: [(String, JSONValue)] = [("dataset", .string("acme")), ("venue", .string("hq")), ("building", .string("main")), ("level", .number(2))]
        let features = [
            feature(.string("room-1"), place + [("room", .string("r1"))]),
            feature(.number(7), place),
            feature(nil, place),
            feature(.string("no-floor"), Array(place.prefix(3))),
            feature(.string("slash"), place.map { $0.0 == "venue" ? ($0.0, .string("h/q")) : $0 }),
            feature(.string("room-1"), place),
        ]
        let fields = try LiveLocationFields(parsing: "floor=level")
        let locations = LiveLocation.locations(in: features, fields: fields)
        #expect(locations.map(\.id) == ["room-1", "7"])
        #expect(locations.first?.floor == "2" && locations.first?.room == "r1" && locations.last?.room == nil)
        #expect(LiveLocation.locations(in: features, fields: LiveLocationFields()).isEmpty, "no floor property under the default name")
    }

    @Test func locationFieldsNameEachLevelOnce() throws {
        let fields = try LiveLocationFields(parsing: "building=buildingId,room=roomId")
        #expect(fields.building == "buildingId" && fields.room == "roomId" && fields.floor == "floor")
        for bad in ["floor", "floor=", "storey=level", "floor=a,floor=b", ""] {
            #expect(throws: LiveTopicError.self, "\(bad)") { try LiveLocationFields(parsing: bad) }
        }
        do {
            _ = try LiveLocationFields(parsing: "storey=level")
        } catch {
            #expect(error.description.hasPrefix("invalid location fields \"storey=level\""), "\(error)")
        }
    }

    @Test func aRefusedPatternCoversTheSubscriptionsBelowIt() throws {
        let annex = try TopicCriteria(parsing: "acme/hq/annex/#")
        #expect(annex.covers(try TopicCriteria(parsing: "acme/hq/annex/1/+/+/occupancy")))
        #expect(annex.covers(try TopicCriteria(parsing: "acme/hq/annex/2/#")))
        #expect(!annex.covers(try TopicCriteria(parsing: "acme/hq/main/1/+/+/occupancy")))
        #expect(!annex.covers(try TopicCriteria(parsing: "acme/hq/+/1/+/+/occupancy")), "a wildcard where it names a building is wider")
        let floor = try TopicCriteria(parsing: "acme/hq/annex/1/+/+/occupancy")
        let wider = try TopicCriteria(parsing: "acme/hq/annex/1/#")
        #expect(floor.covers(floor) && !floor.covers(wider))
    }
}
