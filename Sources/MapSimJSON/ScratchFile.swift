#if canImport(Glibc)
import Glibc
private let posixWrite = Glibc.write
private let posixClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let posixWrite = Darwin.write
private let posixClose = Darwin.close
#endif

#if os(Linux) && (arch(x86_64) || arch(arm64))
/// `O_TMPFILE`, which Swift does not import (a macro of two): a file with no name in the folder.
private let unnamedFile: Int32 = 0o20000000 | O_DIRECTORY
#endif

/// A file of the process's own in a folder (the temporary one, `TMPDIR`) that has no name there,
/// so that nothing is left behind however the process ends — a `kill -9` included: made unnamed
/// (`O_TMPFILE`) on Linux, else — or where the folder's file system cannot — made with `mkstemp`
/// and removed at once. It lives as long as its descriptor: until the value goes.
public final class ScratchFile {
    /// The folder it was made in, for errors.
    public let folder: String
    private let descriptor: Int32

    /// A new, empty file in `folder`, named (while it has a name) with `prefix`; the error is the
    /// system's reason (`No such file or directory`).
    public init(in folder: String, prefix: String) throws(ScratchFile.Failure) {
        self.folder = folder
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        let unnamed = open(folder, unnamedFile | O_RDWR | O_CLOEXEC, 0o600)
        if unnamed >= 0 {
            descriptor = unnamed
            return
        }
        #endif
        var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
    }

    deinit {
        _ = posixClose(descriptor)
    }

    /// Why a scratch file could not be made, written or read: the system's words.
    public struct Failure: Error, Sendable {
        /// The system's reason (`strerror`), or what went wrong.
        public let reason: String
    }

    /// A path that opens this same file again while the value lives, for code that only opens
    /// paths (`/proc/self/fd/N` on Linux, `/dev/fd/N` elsewhere).
    public var reopeningPath: String {
        #if os(Linux)
        "/proc/self/fd/\(descriptor)"
        #else
        "/dev/fd/\(descriptor)"
        #endif
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(ScratchFile.Failure) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress! + done, $0.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: String(cString: strerror(errno)))
            }
            done += written
        }
    }

    /// Reads up to `count` bytes at `offset` into the start of `buffer`, which holds at least
    /// `count`: how many, 0 at the end.
    public func read(at offset: Int, count: Int, into buffer: inout [UInt8]) throws(ScratchFile.Failure) -> Int {
        precondition(count <= buffer.count, "a read of \(count) bytes into \(buffer.count)")
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(offset)) }
            if got >= 0 { return got }
            if errno != EINTR { throw Failure(reason: String(cString: strerror(errno))) }
        }
    }
}
