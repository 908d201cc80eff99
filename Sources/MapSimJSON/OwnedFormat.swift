#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file mapsim writes looks like, so that one rule keeps every user's file safe: an output
/// path that holds a file already is replaced only when that file is provably one mapsim wrote — a
/// trace, an events file, a report page, an archive, a cache of its own format — or is empty.
/// Anything else there (a style given as `--events` by mistake, a page of the user's own) is
/// refused with a message naming it, and left as it was. A device or a pipe is written in place,
/// never replaced; a symbolic link's target is the file.
public struct OwnedFormat: Sendable {
    /// What such a file is, for messages: "a mapsim events file".
    public let name: String
    private let test: @Sendable ([UInt8]) -> Bool

    /// How many bytes of a file are read to recognize it.
    public static let prefixLength = 65_536

    /// A format called `name`, recognized by `test` from the first `prefixLength` bytes of a file.
    public init(_ name: String, recognizedBy test: @escaping @Sendable ([UInt8]) -> Bool) {
        self.name = name
        self.test = test
    }

    /// Whether a file that begins with `prefix` is of this format.
    public func recognizes(_ prefix: [UInt8]) -> Bool {
        test(prefix)
    }

    /// Why `path` may not be replaced by a file of this format: nil when nothing is there, the file
    /// is empty or not a regular file (a device is written in place), or it is one of this format.
    public func refusal(toReplace path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return "\(path) exists and cannot be read to tell whether mapsim wrote it (\(String(cString: strerror(errno)))); it was left as it is"
        }
        defer { close(descriptor) }
        var prefix = [UInt8](repeating: 0, count: Self.prefixLength)
        var count = 0
        while count < prefix.count {
            let got = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        guard !recognizes(Array(prefix.prefix(count))) else { return nil }
        return "\(path) exists and is not \(name): mapsim replaces only a file of its own, so it was left as it is (remove it, or give another path)"
    }

    /// Any file at all: for a path the user said may be replaced (`--force`).
    public static let anyFile = OwnedFormat("a file") { _ in true }

    /// The first key of the JSON object `bytes` begin with (after white space), if they begin with one.
    public static func firstKey(_ bytes: [UInt8]) -> String? {
        var index = bytes.firstIndex { !Self.isSpace($0) } ?? bytes.endIndex
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index = bytes[(index + 1)...].firstIndex { !Self.isSpace($0) } ?? bytes.endIndex
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        guard let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether `bytes` begin with `text`.
    public static func begins(_ bytes: [UInt8], with text: String) -> Bool {
        bytes.starts(with: Array(text.utf8))
    }

    /// Whether `text` occurs in `bytes`.
    public static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first, needle.count <= bytes.count else { return false }
        var index = 0
        while index + needle.count <= bytes.count {
            guard let start = bytes[index...].firstIndex(of: first), start + needle.count <= bytes.count else { return false }
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
            index = start + 1
        }
        return false
    }
}
