#if canImport(Glibc)
@preconcurrency import Glibc
private let posixClose = Glibc.close
private let posixWrite = Glibc.write
private let posixUmask = Glibc.umask
#elseif canImport(Darwin)
@preconcurrency import Darwin
private let posixClose = Darwin.close
private let posixWrite = Darwin.write
private let posixUmask = Darwin.umask
#endif
import Foundation
import MapSimJSON

/// A file a command writes, as a well-behaved Unix tool writes it: `-` is standard output; a
/// regular file (or a new path) is written to a temporary file beside it and renamed over it at the
/// end, so a reader never sees half of it; a symbolic link is followed to its target, which is
/// written, never the link replaced; anything else — a device, a FIFO, `/dev/stdout` — is written
/// straight through, never replaced. A streamed file (a live recording that `tail -f` follows) is
/// written in place as it goes. A file already at the path is replaced only when it is provably one
/// of mapsim's own, of the format about to be written (`OwnedFormat`), or empty: anything else is
/// refused, and left as it was.
public final class OutputFile: @unchecked Sendable {
    private enum Mode {
        case standardOutput
        case throughTo(Int32)
        case atomic(descriptor: Int32, temporary: String)
    }

    /// The path as the user gave it.
    public let path: String
    /// The file written at last: the target of a link, or the path itself.
    public let target: String
    private var mode: Mode
    private var closed = false

    /// Opens `path` for writing a file of `format` (`-` for standard output). A file it makes or
    /// replaces gets `permissions` when they are given (a private key's 0o600), else those of the
    /// file it replaces. `streamed` writes the file in place, so that what was written can be read
    /// at once.
    public init(path: String, format: OwnedFormat, permissions required: mode_t? = nil, streamed: Bool = false) throws(TraceError) {
        self.path = path
        if path == "-" {
            target = path
            mode = .standardOutput
            return
        }
        let resolved = Self.resolveLinks(path)
        target = resolved
        var info = stat()
        if stat(resolved, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw Self.failure(path, "it is a directory") }
            let descriptor = open(resolved, O_WRONLY)
            guard descriptor >= 0 else { throw Self.failure(path, Self.reason(errno)) }
            mode = .throughTo(descriptor)
            return
        }
        if let refusal = format.refusal(toReplace: resolved) { throw TraceError(.cannotWrite, file: path, refusal) }
        let folder = FilePath.folder(of: resolved)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Self.failure(path, "the folder \(folder) does not exist")
        }
        if streamed {
            let descriptor = open(resolved, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, required ?? 0o666)
            guard descriptor >= 0 else { throw Self.failure(path, Self.reason(errno)) }
            mode = .throughTo(descriptor)
            return
        }
        var template = Array((folder + "/." + FilePath.name(of: resolved) + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Self.failure(path, Self.reason(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Keep the permissions of the file replaced; a new file gets the usual ones.
        let permissions = required ?? (stat(resolved, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~Self.umask())
        _ = fchmod(descriptor, permissions)
        mode = .atomic(descriptor: descriptor, temporary: temporary)
    }

    deinit {
        if case .atomic(let descriptor, let temporary) = mode, !closed {
            _ = posixClose(descriptor)
            unlink(temporary)
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(TraceError) {
        let descriptor: Int32
        switch mode {
        case .standardOutput:
            // Through the C library's stream that `print` writes to, so the two keep their order
            // (and a closed pipe does what that stream does with one: `mapsim` ends there, as
            // SIGPIPE would end it).
            let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
            guard written == bytes.count, fflush(stdout) == 0 else { throw Self.failure(path, Self.reason(errno)) }
            return
        case .throughTo(let open), .atomic(let open, _):
            descriptor = open
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, Self.reason(errno))
            }
            offset += written
        }
    }

    /// Writes what is left and puts the file in place; throws if anything could not be written.
    public func close() throws(TraceError) {
        guard !closed else { return }
        closed = true
        switch mode {
        case .standardOutput:
            break
        case .throughTo(let descriptor):
            guard posixClose(descriptor) == 0 else { throw Self.failure(path, Self.reason(errno)) }
        case .atomic(let descriptor, let temporary):
            let synced = fsync(descriptor) == 0 || errno == EINVAL
            let closedCleanly = posixClose(descriptor) == 0
            guard synced && closedCleanly else {
                let error = Self.reason(errno)
                unlink(temporary)
                throw Self.failure(path, error)
            }
            guard rename(temporary, target) == 0 else {
                let error = Self.reason(errno)
                unlink(temporary)
                throw Self.failure(path, error)
            }
        }
    }

    /// Writes `text`, a file of `format`, to `path` as a whole.
    public static func write(_ text: String, to path: String, format: OwnedFormat) throws(TraceError) {
        try write(Array(text.utf8), to: path, format: format)
    }

    /// Writes `bytes`, a file of `format`, to `path` as a whole.
    public static func write(_ bytes: [UInt8], to path: String, format: OwnedFormat) throws(TraceError) {
        let file = try OutputFile(path: path, format: format)
        try file.write(bytes)
        try file.close()
    }

    /// The file a chain of symbolic links ends at (a dangling link's target, to be created).
    private static func resolveLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = FilePath.join(FilePath.folder(of: current), destination)
        }
        return current
    }

    private static func umask() -> mode_t {
        let mask = posixUmask(0o022)
        _ = posixUmask(mask)
        return mask
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func failure(_ path: String, _ reason: String) -> TraceError {
        TraceError(.cannotWrite, file: path, "cannot write: \(reason)")
    }
}
