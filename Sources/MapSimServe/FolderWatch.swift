#if os(Linux)
import Glibc
#endif
import Synchronization

/// What changed below a served folder since it was last asked, from the kernel's own notices
/// (inotify): a file kept in memory is served again without looking at the disk as long as no
/// notice names it. The kernel queues a notice when the change is made, so a request that comes
/// after a change always sees it. Only its owner's lock calls `changes()`, one caller at a time;
/// any caller may ask `hasNotices`. Elsewhere than on Linux there is none (`init` fails), and each
/// request looks at the file.
final class FolderWatch: Sendable {
    /// What the notices since the last call name.
    enum Changes: Equatable {
        case none
        /// These paths, relative to the folder: each is a file or a folder that was created,
        /// changed, moved or deleted.
        case paths(Set<String>)
        /// Anything: a watched folder itself went away or moved, or the kernel dropped notices.
        case everything
    }

    #if os(Linux)
    private let descriptor: Int32
    private let root: String
    /// The relative paths ("" for the folder itself) each watch descriptor stands for — several
    /// when links lead to one folder, which the kernel watches once — and each path's watch.
    private let folders = Mutex<(byWatch: [Int32: Set<String>], watches: [String: Int32])>(([:], [:]))

    /// A watch of the folder at `root` (a real path); nil where inotify cannot be had.
    init?(root: String) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.root = root
    }

    deinit {
        close(descriptor)
    }

    /// Watches each folder of `relativePath` (a file's path below the root), from the root down;
    /// false when one cannot be watched (the kernel's limit of watches reached), and the file must
    /// then be looked at on each request.
    func watchFolders(of relativePath: String) -> Bool {
        var folder = ""
        var chain = [""]
        for segment in relativePath.split(separator: "/").dropLast() {
            folder += folder.isEmpty ? String(segment) : "/" + segment
            chain.append(folder)
        }
        let mask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        return folders.withLock { folders in
            for folder in chain where folders.watches[folder] == nil {
                let watch = inotify_add_watch(descriptor, folder.isEmpty ? root : root + "/" + folder, mask)
                guard watch >= 0 else { return false }
                folders.byWatch[watch, default: []].insert(folder)
                folders.watches[folder] = watch
            }
            return true
        }
    }

    /// Whether the kernel has queued notices not read yet (`changes()` would read them): it asks
    /// how many bytes are queued, and reads none. True when it cannot tell.
    var hasNotices: Bool {
        var queued: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &queued) != 0 || queued > 0
    }

    /// The changes the kernel noticed since the last call: one `read` that finds nothing when
    /// nothing changed.
    func changes() -> Changes {
        withUnsafeTemporaryAllocation(byteCount: 8192, alignment: 8) { buffer -> Changes in
            var named = Set<String>()
            while case let count = read(descriptor, buffer.baseAddress, buffer.count), count > 0 {
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let name = UnsafeRawBufferPointer(rebasing: buffer[(offset + header)..<min(offset + header + length, count)]).prefix { $0 != 0 }
                    offset += header + length
                    let paths = folders.withLock { $0.byWatch[watch] }
                    // A watch removed here is said to be gone; one the kernel removed (its folder
                    // deleted), a folder moved or notices dropped: anything may have changed.
                    if mask & UInt32(IN_IGNORED) != 0 && paths == nil { continue }
                    if mask & UInt32(IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { return forgetAll(buffer) }
                    let child = String(decoding: name, as: UTF8.self)
                    for folder in paths ?? [] { named.insert(folder.isEmpty ? child : folder + "/" + child) }
                }
            }
            return named.isEmpty ? .none : .paths(named)
        }
    }

    /// Everything changed: every watch is dropped, to be made again as files are read again.
    private func forgetAll(_ buffer: UnsafeMutableRawBufferPointer) -> Changes {
        while read(descriptor, buffer.baseAddress, buffer.count) > 0 {}
        folders.withLock { folders in
            for watch in folders.byWatch.keys { inotify_rm_watch(descriptor, watch) }
            folders = ([:], [:])
        }
        return .everything
    }
    #else
    init?(root: String) {
        nil
    }

    func watchFolders(of relativePath: String) -> Bool {
        false
    }

    var hasNotices: Bool {
        false
    }

    func changes() -> Changes {
        .none
    }
    #endif
}
