#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened read-only for positioned reads: a tile archive read a range at a time,
/// without reading the rest. The descriptor closes with the value.
public final class RandomAccessFile: Sendable {
    /// The path it was opened at.
    public let path: String
    /// Its size when opened.
    public let size: UInt64
    private let descriptor: Int32

    /// Opens `path`; says why it cannot (missing, not permitted, a directory).
    public init(path: String) throws(InputFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFile.failure(path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let number = errno
            close(descriptor)
            throw InputFile.failure(path, number)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw InputFileError(.isDirectory, path: path, "it is a directory")
        }
        self.path = path
        self.descriptor = descriptor
        size = UInt64(max(0, info.st_size))
    }

    deinit { close(descriptor) }

    /// Bytes `range` (first and last included), refused past `limit` bytes; fewer when the file ends
    /// inside the range, refused (`outOfRange`) when it ends before the range starts.
    public func read(_ range: ClosedRange<UInt64>, limit: Int) throws(InputFileError) -> [UInt8] {
        guard range.lowerBound < size else {
            throw InputFileError(.outOfRange, path: path, "bytes \(range.lowerBound)–\(range.upperBound) are past the end of the file (\(size) bytes)")
        }
        // A range past the end (or to the end, `bytes=0-`) reads what there is.
        let wanted = min(range.upperBound, size - 1) - range.lowerBound + 1
        guard wanted <= UInt64(limit) else {
            throw InputFileError(.tooLarge, path: path, "bytes \(range.lowerBound)–\(range.lowerBound + wanted - 1) are \(wanted) bytes, more than the limit of \(limit)")
        }
        let count = Int(wanted)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var filled = 0
            while filled < count {
                let got = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(range.lowerBound) + off_t(filled))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if got == 0 { break }
                filled += got
            }
            initialized = filled
        }
        if failure != 0 { throw InputFile.failure(path, failure) }
        return bytes
    }
}
