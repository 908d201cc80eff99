import ArgumentParser
import MapSimKit

/// A size in bytes on the command line, read as every size is (`ByteCount.parse`): `52428800`,
/// `50MiB` or `50M` (1024s, MapLibre's "50 MB" default is 52,428,800 bytes), `500KB` (1000s).
struct ByteSizeArgument: ExpressibleByArgument {
    var bytes: Int

    init?(argument: String) {
        guard let bytes = ByteCount.parse(argument) else { return nil }
        self.bytes = bytes
    }

    init(bytes: Int) {
        self.bytes = bytes
    }

    var defaultValueDescription: String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20)MiB" : "\(bytes)"
    }
}
