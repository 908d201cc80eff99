#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file a line at a time through a fixed buffer, so that a feed of any length costs the
/// memory of its longest line. `-` reads standard input. A line longer than `maximumLineLength` is
/// cut there and the rest of it skipped, so a file without newlines cannot exhaust memory.
final class LineReader: @unchecked Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Inside a line past the limit, whose head was returned.
    private var skipping = false
    let maximumLineLength: Int

    /// Opens `path` (`-` for standard input); a file that cannot be opened, or a directory, is an error saying why.
    init(path: String, maximumLineLength: Int = 1 << 20) throws(FeedError) {
        self.maximumLineLength = maximumLineLength
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw FeedError(.unreadable, "cannot read \(path): \(String(cString: strerror(errno)))") }
            var info = stat()
            if fstat(opened, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw FeedError(.unreadable, "cannot read \(path): it is a directory, not a feed")
            }
            descriptor = opened
            ownsDescriptor = true
        }
    }

    /// Reads lines from `bytes`.
    init(bytes: [UInt8], maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
        descriptor = -1
        ownsDescriptor = false
        buffer = bytes
        atEnd = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next line without its newline (and without a carriage return before it); nil at the end.
    func next() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                if skipping {
                    skipping = false
                    continue
                }
                return Array(line.last == 0x0D ? line.dropLast() : line)
            }
            if skipping {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if buffer.count - start > maximumLineLength {
                // A line past the limit: its head is the line, the rest of it is skipped.
                let line = Array(buffer[start..<start + maximumLineLength])
                skipping = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
                return line
            }
            if atEnd {
                guard start < buffer.count, !skipping else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return Array(line.last == 0x0D ? line.dropLast() : line)
            }
            fill()
        }
    }

    private func fill() {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, chunk) }
        } while count < 0 && errno == EINTR
        buffer.removeLast(chunk - max(count, 0))
        if count <= 0 { atEnd = true }
    }
}
