import CLibDeflate
import Foundation

/// The CRC-32 of PNG chunks, zip entries and gzip members (polynomial 0xEDB88320, reflected), by
/// libdeflate, which folds it with the processor's carry-less multiply.
enum CRC32 {
    /// The checksum of `bytes`.
    static func checksum(_ bytes: some ContiguousBytes) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    }
}
