/// The 64-bit FNV-1a fingerprint of bytes, fed in pieces: stable across runs and machines, for
/// simulated ETags and for finding identical tiles. Not a cryptographic hash.
public struct FNV1a: Sendable {
    /// The fingerprint so far.
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// A fingerprint of nothing yet.
    public init() {}

    /// Adds `bytes`.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        // Arrays, slices and Data are read from their storage: called from another module, this
        // generic function is not specialized, and a byte at a time through the protocol took a
        // third of a PMTiles export.
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }
        guard contiguous == nil else { return }
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }

    /// The fingerprint as a quoted ETag.
    public var etag: String { "\"\(String(value, radix: 16))\"" }
}
