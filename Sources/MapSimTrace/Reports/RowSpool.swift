#if canImport(Glibc)
import Glibc
private let posixWrite = Glibc.write
private let posixClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let posixWrite = Darwin.write
private let posixClose = Darwin.close
#endif
import Foundation

/// A report's rows kept on disk while the rest of their trace is read, then read back into the page
/// after its data: a file of mapsim's own in the temporary folder (`TMPDIR`), made new and removed
/// from the folder at once, so it is gone when the process ends, however it ends.
final class RowSpool {
    private let descriptor: Int32
    /// The folder it is in, for errors.
    private let folder: String
    /// The bytes written.
    private(set) var size = 0

    /// A new, empty spool.
    init() throws(TraceError) {
        folder = FileManager.default.temporaryDirectory.path
        var template = Array((folder + "/mapsim-report-rows-XXXXXX").utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure(folder, "cannot make a temporary file for the report's rows in this folder (TMPDIR): \(String(cString: strerror(errno)))") }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    }

    deinit {
        _ = posixClose(descriptor)
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(TraceError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress! + done, $0.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(folder, "cannot keep the report's rows in a temporary file: \(String(cString: strerror(errno)))")
            }
            done += written
        }
        size += bytes.count
    }

    /// Reads back what was written, in order, a piece of at most `pieceSize` bytes at a time.
    func read(pieceSize: Int = 1 << 20, _ each: ([UInt8]) throws(TraceError) -> Void) throws(TraceError) {
        var offset = 0
        var piece = [UInt8](repeating: 0, count: pieceSize)
        while offset < size {
            let count = min(pieceSize, size - offset)
            let got = piece.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(offset)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else {
                throw Self.failure(folder, "cannot read the report's rows back from their temporary file: "
                                   + (got < 0 ? String(cString: strerror(errno)) : "it ended early"))
            }
            // A whole piece is handed on as it is (no copy); only the last is cut to its size.
            try each(got == pieceSize ? piece : Array(piece[..<got]))
            offset += got
        }
    }

    /// The error of a spool in `folder`: a page that cannot be written whole.
    private static func failure(_ folder: String, _ reason: String) -> TraceError {
        TraceError(.cannotWrite, file: folder, reason)
    }
}
