// MapSimKit is the one library a front end needs — the `mapsim` executable imports it alone: it
// composes the engine, the cache, the network, traces, live data and content, and hands on their
// public types.
@_exported import MapSim
@_exported import MapSimArchives
@_exported import MapSimCache
@_exported import MapSimContent
@_exported import MapSimHTTP
@_exported import MapSimJSON
@_exported import MapSimLive
@_exported import MapSimServe
@_exported import MapSimStyle
@_exported import MapSimTrace
