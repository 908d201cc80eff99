import Testing
import MapSim
import MapSimStyle
@testable import MapSimLive

/// The follower on its own: which subscriptions the view and the application make, and when.
@Suite("LiveViewFollower")
struct LiveViewFollowerTests {
    private let main = (0..<4).map { LiveLocation(id: "m\($0)", dataset: "acme", venue: "hq", building: "main", floor: "1", room: nil,
                                                   anchor: LngLat(longitude: 12.5680 + 0.0002 * Double($0), latitude: 55.676)) }
    private let annex = (0..<4).map { LiveLocation(id: "a\($0)", dataset: "acme", venue: "hq", building: "annex", floor: "1", room: nil,
                                                    anchor: LngLat(longitude: 12.5740 + 0.0002 * Double($0), latitude: 55.676)) }

    private func view(_ longitude: Double, zoom: Double = 17, floor: String = "1") -> LiveView {
        LiveView(camera: Camera(center: LngLat(longitude: longitude, latitude: 55.676), zoom: zoom), viewport: Viewport(width: 512, height: 512), floor: floor)
    }

    private func filters(_ actions: [LiveViewFollower.Action]) -> [String] {
        actions.map {
            switch $0 {
            case .subscribe(let criteria): "+ \(criteria.mqttFilter)"
            case .unsubscribe(let criteria): "- \(criteria.mqttFilter)"
            }
        }
    }

    @Test func enablingWaitsForTheMapToSettleThenFollowsTheViewSubscribingBeforeUnsubscribing() {
        var follower = LiveViewFollower()
        #expect(follower.handle(.enable(domain: "occupancy"), at: .zero).isEmpty && follower.isWaitingToSettle)
        let first = follower.handle(.settled(locations: main + annex, view: view(12.5683)), at: .zero)
        #expect(filters(first) == ["+ acme/hq/main/1/+/+/occupancy"] && !follower.isWaitingToSettle)
        _ = follower.handle(.viewChanged, at: .zero)
        let panned = follower.handle(.settled(locations: main + annex, view: view(12.5743)), at: .zero)
        #expect(filters(panned) == ["+ acme/hq/annex/1/+/+/occupancy", "- acme/hq/main/1/+/+/occupancy"], "the connection never drops to no subscription")
    }

    @Test func aViewThatComesBackBeforeSettlingChangesNothing() {
        var follower = LiveViewFollower()
        _ = follower.handle(.enable(domain: "occupancy"), at: .zero)
        _ = follower.handle(.settled(locations: main + annex, view: view(12.5683)), at: .zero)
        _ = follower.handle(.viewChanged, at: .zero)
        _ = follower.handle(.viewChanged, at: .zero)
        #expect(follower.handle(.settled(locations: main + annex, view: view(12.5683)), at: .zero).isEmpty)
    }

    @Test func theApplicationsSubscriptionIsSharedAndOutlivesTheViews() throws {
        var follower = LiveViewFollower()
        let floor = try TopicCriteria(parsing: "acme/hq/main/1/+/+/occupancy")
        #expect(filters(follower.handle(.subscribe(floor), at: .zero)) == ["+ acme/hq/main/1/+/+/occupancy"])
        _ = follower.handle(.enable(domain: "occupancy"), at: .zero)
        #expect(follower.handle(.settled(locations: main, view: view(12.5683)), at: .zero).isEmpty, "already subscribed by the application")
        #expect(follower.handle(.unsubscribe(floor), at: .zero).isEmpty, "the view still needs it")
        #expect(filters(follower.handle(.disable(domain: "occupancy"), at: .zero)) == ["- acme/hq/main/1/+/+/occupancy"])
        // What nobody subscribed goes to the manager, which says it was not subscribed.
        #expect(filters(follower.handle(.unsubscribe(floor), at: .zero)) == ["- acme/hq/main/1/+/+/occupancy"])
    }

    @Test func aRefusedCriteriaIsNeverAskedForAgainWhileTheDomainIsEnabled() throws {
        var follower = LiveViewFollower()
        _ = follower.handle(.enable(domain: "occupancy"), at: .zero)
        _ = follower.handle(.settled(locations: main + annex, view: view(12.5713, zoom: 15)), at: .zero)
        let refused = try TopicCriteria(parsing: "acme/hq/annex/1/+/+/occupancy")
        #expect(follower.handle(.refused(refused), at: .zero).isEmpty)
        _ = follower.handle(.viewChanged, at: .zero)
        let away = follower.handle(.settled(locations: main + annex, view: view(12.5743)), at: .zero)
        #expect(filters(away) == ["- acme/hq/main/1/+/+/occupancy"], "the annex is in view but refused: only the main building goes")
        _ = follower.handle(.disable(domain: "occupancy"), at: .zero)
        _ = follower.handle(.enable(domain: "occupancy"), at: .zero)
        #expect(filters(follower.handle(.settled(locations: main + annex, view: view(12.5743)), at: .zero)) == ["+ acme/hq/annex/1/+/+/occupancy"],
                "enabling again starts afresh")
    }

    @Test func eachDomainHasItsOwnCriteria() {
        var follower = LiveViewFollower()
        _ = follower.handle(.enable(domain: "occupancy"), at: .zero)
        _ = follower.handle(.enable(domain: "position"), at: .zero)
        #expect(filters(follower.handle(.settled(locations: main, view: view(12.5683)), at: .zero))
                == ["+ acme/hq/main/1/+/+/occupancy", "+ acme/hq/main/1/+/+/position"])
        #expect(filters(follower.handle(.disable(domain: "position"), at: .zero)) == ["- acme/hq/main/1/+/+/position"])
        #expect(follower.domains == ["occupancy"])
    }
}
