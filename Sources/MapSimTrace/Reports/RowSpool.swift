import Foundation
import MapSimJSON

/// A report's rows kept on disk while the rest of their trace is read, then read back into the page
/// after its data: a file of mapsim's own in the temporary folder (`TMPDIR`), made new and removed
/// from the folder at once, so it is gone when the process ends, however it ends.
final class RowSpool {
    private let file: ScratchFile
    /// The bytes written.
    private(set) var size = 0

    /// A new, empty spool.
    init() throws(TraceError) {
        let folder = FileManager.default.temporaryDirectory.path
        do {
            file = try ScratchFile(in: folder, prefix: "mapsim-report-rows-")
        } catch {
            throw Self.failure(folder, "cannot make a temporary file for the report's rows in this folder (TMPDIR): \(error.reason)")
        }
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(TraceError) {
        do {
            try file.write(bytes)
        } catch {
            throw Self.failure(file.folder, "cannot keep the report's rows in a temporary file: \(error.reason)")
        }
        size += bytes.count
    }

    /// Reads back what was written, in order, a piece of at most `pieceSize` bytes at a time.
    func read(pieceSize: Int = 1 << 20, _ each: ([UInt8]) throws(TraceError) -> Void) throws(TraceError) {
        var offset = 0
        var piece = [UInt8](repeating: 0, count: pieceSize)
        while offset < size {
            let count = min(pieceSize, size - offset)
            let got: Int
            do {
                got = try file.read(at: offset, count: count, into: &piece)
            } catch {
                throw Self.failure(file.folder, "cannot read the report's rows back from their temporary file: \(error.reason)")
            }
            guard got > 0 else { throw Self.failure(file.folder, "cannot read the report's rows back from their temporary file: it ended early") }
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
