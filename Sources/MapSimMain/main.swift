import MapSimCLI

// The `mapsim` executable: all it does is MapSimCommand's. It is a target of its own so that the
// release link's static runtime (Package.swift) reaches this executable and never the tests.
MapSimCommand.main()
