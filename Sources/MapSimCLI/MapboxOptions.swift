import ArgumentParser
import Foundation
import MapSimKit

/// How `mapbox://` URLs are normalized: `--access-token` and `--mapbox-api-url`.
struct MapboxOptions: ParsableArguments {
    /// The API that `mapbox://` URLs point to unless --mapbox-api-url says otherwise.
    static let defaultAPIURL = "https://api.mapbox.com"

    @Option(help: "The access token added to mapbox:// URLs (never written to the cache; default: $MAPBOX_ACCESS_TOKEN). Without one, a mapbox:// resource the cache lacks fails at once, and a region download stops at it.")
    var accessToken: String?

    @Option(name: .customLong("mapbox-api-url"), help: "The API that mapbox:// URLs point to.")
    var mapboxAPIURL: String = Self.defaultAPIURL

    /// The normalizer these options describe.
    var normalizer: MapboxURL {
        Self.normalizer(accessToken: accessToken, apiURL: mapboxAPIURL)
    }

    /// The normalizer for `apiURL` with the token: `accessToken`, else the environment's
    /// MAPBOX_ACCESS_TOKEN (as Mapbox's tools read it); an empty one is none.
    static func normalizer(accessToken: String?, apiURL: String) -> MapboxURL {
        let token = accessToken ?? ProcessEnvironment.value("MAPBOX_ACCESS_TOKEN")
        return MapboxURL(baseURL: apiURL, accessToken: token?.isEmpty == false ? token : nil)
    }

    /// Refuses a `mapbox://` style to load from the network when `normalizer` has no token, at
    /// once: the API would refuse it, and no retry helps. (From a cache, or offline, the cache
    /// answers without one.)
    static func requireToken(_ normalizer: MapboxURL, forStyle style: String, offline: Bool) throws {
        guard MapboxURL.isMapbox(style), normalizer.accessToken == nil, !offline else { return }
        throw ValidationError("\(style) is a Mapbox style, and the Mapbox API needs an access token: set MAPBOX_ACCESS_TOKEN or give --access-token")
    }
}
