import Hummingbird
import NIOCore

/// The request context of `mapsim serve`: Hummingbird's, with the connection's channel, so that a
/// fault or an offline window can drop the connection as a lost network does.
struct ServeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
