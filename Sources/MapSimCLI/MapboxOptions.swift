import ArgumentParser
import Foundation
import MapSimKit

/// How `mapbox://` URLs are normalized: `--access-token` and `--mapbox-api-url`.
struct MapboxOptions: ParsableArguments {
    @Option(help: "The access token added to mapbox:// URLs (never written to the cache; default: $MAPBOX_ACCESS_TOKEN). Without one, a mapbox:// resource the cache lacks fails at once.")
    var accessToken: String?

    @Option(name: .customLong("mapbox-api-url"), help: "The API that mapbox:// URLs point to.")
    var mapboxAPIURL: String = "https://api.mapbox.com"

    /// The token: --access-token, else the environment's MAPBOX_ACCESS_TOKEN (as Mapbox's tools read it).
    var token: String? {
        let token = accessToken ?? ProcessInfo.processInfo.environment["MAPBOX_ACCESS_TOKEN"]
        return token?.isEmpty == false ? token : nil
    }

    /// The normalizer these options describe.
    var normalizer: MapboxURL {
        MapboxURL(baseURL: mapboxAPIURL, accessToken: token)
    }

    /// Refuses a `mapbox://` style to load from the network without a token, at once: the API would
    /// refuse it, and no retry helps. (From a cache, or offline, the cache answers without one.)
    func requireToken(forStyle style: String, offline: Bool) throws {
        guard MapboxURL.isMapbox(style), token == nil, !offline else { return }
        throw ValidationError("\(style) is a Mapbox style, and the Mapbox API needs an access token: set MAPBOX_ACCESS_TOKEN or give --access-token")
    }
}
