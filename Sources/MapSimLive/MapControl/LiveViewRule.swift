/// Which criteria the map control subscribes to for what is in view, as MapsIndoors' `enableLiveData`
/// works them out once the map settles:
///
/// - A location is in view when it is on the floor shown and its anchor (a point's position, else
///   the centre of its bounding box) is inside the view.
/// - Locations are grouped by floor: `dataset/venue/building/floor`. For every floor with a location
///   in view, when the view holds more than half of that floor's locations the whole floor is one
///   criteria, `dataset/venue/building/floor/+/+/DOMAIN`; otherwise each location in view is one,
///   `dataset/venue/building/floor/room/location/DOMAIN` (`+` for a location with no room).
/// - A location outside every criteria gets no updates: a moving object that enters the view unseen
///   stays unseen until the next settle puts it in a criteria.
///
/// The criteria come sorted by their MQTT filter, so the same view always gives the same list.
public enum LiveViewRule {
    /// The criteria for `domain` that cover the locations of `locations` in `view`.
    public static func criteria(for locations: [LiveLocation], in view: LiveView, domain: String) -> [TopicCriteria] {
        struct Floor: Hashable {
            var dataset, venue, building, floor: String
        }
        var totals: [Floor: Int] = [:]
        var visible: [Floor: [LiveLocation]] = [:]
        for location in locations where location.floor == view.floor {
            let floor = Floor(dataset: location.dataset, venue: location.venue, building: location.building, floor: location.floor)
            totals[floor, default: 0] += 1
            if view.contains(location.anchor) { visible[floor, default: []].append(location) }
        }
        var criteria: [TopicCriteria] = []
        for (floor, shown) in visible {
            if shown.count * 2 > totals[floor, default: 0] {
                criteria.append(TopicCriteria(dataset: floor.dataset, venue: floor.venue, building: floor.building, floor: floor.floor, domainType: domain))
            } else {
                for location in shown {
                    criteria.append(TopicCriteria(dataset: floor.dataset, venue: floor.venue, building: floor.building, floor: floor.floor,
                                                  room: location.room, location: location.id, domainType: domain))
                }
            }
        }
        return criteria.sorted { $0.mqttFilter < $1.mqttFilter }
    }
}
