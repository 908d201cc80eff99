import Foundation
import MapSimJSON

/// Where an archive is written: a new file beside its destination, renamed over it when complete,
/// so that a reader never sees half an archive and a failed export leaves the old file as it was.
/// A symbolic link is followed (its target is the file written); a device or pipe is written in
/// place, where the format allows it. A file already at the destination is replaced only when it
/// is an archive of the same format (or empty): a user's other file is refused, left as it was.
struct ArchiveOutput {
    /// The file the archive ends up in.
    let destination: String
    /// The file written first, renamed to `destination`; nil when writing in place.
    let temporary: String?

    /// The output for `path`, an archive of `format`; `inPlaceAllowed` says whether a device may be
    /// written directly.
    init(path: String, format: OwnedFormat, inPlaceAllowed: Bool) throws {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var info = stat()
        if stat(resolved, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw ArchiveOutputError("\(path) is a directory") }
            guard inPlaceAllowed else { throw ArchiveOutputError("\(path) is not a regular file; this archive format needs one") }
            destination = resolved
            temporary = nil
            return
        }
        if let refusal = format.refusal(toReplace: resolved) { throw ArchiveOutputError(refusal) }
        let folder = (resolved as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder) else {
            throw ArchiveOutputError("the folder of \(path) does not exist")
        }
        destination = resolved
        temporary = resolved + ".mapsim-\(getpid()).tmp"
    }

    /// The path to write to now.
    var writingPath: String { temporary ?? destination }

    /// Moves the finished file into place.
    func commit() throws {
        guard let temporary else { return }
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw ArchiveOutputError("cannot move the new archive to \(destination): \(reason)")
        }
    }

    /// Removes what was written after a failure.
    func discard() {
        guard let temporary else { return }
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
    }
}
