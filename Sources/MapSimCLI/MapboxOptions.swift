import ArgumentParser
import MapSimKit

/// How `mapbox://` URLs are normalized: `--access-token` and `--mapbox-api-url`.
struct MapboxOptions: ParsableArguments {
    @Option(help: "The access token added to mapbox:// URLs (never written to the cache).")
    var accessToken: String?

    @Option(name: .customLong("mapbox-api-url"), help: "The API that mapbox:// URLs point to.")
    var mapboxAPIURL: String = "https://api.mapbox.com"

    /// The normalizer these options describe.
    var normalizer: MapboxURL {
        MapboxURL(baseURL: mapboxAPIURL, accessToken: accessToken)
    }
}
