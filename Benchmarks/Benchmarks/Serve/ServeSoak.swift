import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A long soak of `mapsim serve`: many clients at once, each on a thread of its own, mixing good
/// requests (the sample's files over keep-alive connections, the server page's own requests) with
/// hostile ones (paths that climb out, headers past the limit, malformed request lines, absurd
/// ranges, bodies, connections cut mid-request, slow headers) for a given time, while the resident
/// memory of the process is sampled: it must stay flat.
enum ServeSoak {
    /// What the soak did.
    struct Outcome {
        var good = 0
        var goodFailed = 0
        var hostile = 0
        /// The resident memory every `sampleInterval`, in bytes.
        var memory: [Int] = []
    }

    /// Requests a client that means no harm makes.
    static let goodPaths = ["/style.json", "/tiles.json", "/tiles/10/163/395.pbf", "/tiles/10/164/396.pbf", "/sprite.json", "/sprite@2x.png",
                            "/glyphs/Mapsim%20Sans%20Regular/0-255.pbf", "/_mapsim/requests.json?after=100000000"]

    /// Requests no client should make, each on a connection of its own.
    static let hostile: [[UInt8]] = [
        Array("GET /../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        Array("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        Array("GET / HTTP/1.1\r\nHost: x\r\nX-Huge: \(String(repeating: "a", count: 20_000))\r\n\r\n".utf8),
        Array("GARBAGE\r\n\r\n".utf8),
        Array("GET /tiles/10/163/395.pbf HTTP/1.1\r\nHost: x\r\nRange: bytes=999999999999-\r\n\r\n".utf8),
        Array("GET /tiles/10/163/395.pbf HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1,5-6,-3\r\n\r\n".utf8),
        Array("POST /style.json HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789".utf8),
        Array("GET /style.json HTTP/1.1\r\nHost: x\r\nAccept-Enc".utf8),
        Array("GET /%zz%00%ff HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        Array("GET /\(String(repeating: "x/", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        Array("GET /style.json HTTP/1.0\r\n\r\n".utf8),
        Array("GET /_mapsim/requests.json?after=-99999999999999999999 HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
        Array("GET /style.json HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"\", W/, *,,,\r\nAccept-Encoding: gzip;q=nan, *;q=-1\r\n\r\n".utf8),
        Array("GET /_mapsim/../style.json HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
    ]

    /// Runs `clients` clients against the server on `port` for `duration`, sampling the resident
    /// memory every `sampleInterval`.
    static func run(port: Int, clients: Int, duration: Duration, sampleInterval: Duration) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: runBlocking(port: port, clients: clients, duration: duration, sampleInterval: sampleInterval)) }.start()
        }
    }

    private static func runBlocking(port: Int, clients: Int, duration: Duration, sampleInterval: Duration) -> Outcome {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        let outcome = Mutex(Outcome())
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                var step = client
                var connection: LoopbackConnection?
                while clock.now < deadline {
                    step += 1
                    // One request in five is hostile.
                    if step % 5 == 0 {
                        attack(port: port, with: hostile[(step / 5) % hostile.count], slowly: step % 35 == 0)
                        outcome.withLock { $0.hostile += 1 }
                        continue
                    }
                    if connection == nil { connection = try? LoopbackConnection(port: port) }
                    let status = connection?.get(goodPaths[step % goodPaths.count]) ?? 0
                    if status != 200 { connection = nil }
                    outcome.withLock { status == 200 ? ($0.good += 1) : ($0.goodFailed += 1) }
                }
            }.start()
        }
        while clock.now < deadline {
            let pause = min(sampleInterval, deadline - clock.now)
            Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            outcome.withLock { $0.memory.append(residentBytes()) }
        }
        group.wait()
        return outcome.withLock { $0 }
    }

    /// Sends `bytes` on a new connection (`slowly`: a byte at a time at first, as a slow client
    /// sends its headers) and reads until the server answers or closes.
    private static func attack(port: Int, with bytes: [UInt8], slowly: Bool) {
        guard let socket = LoopbackConnection.connected(port: port) else { return }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        if slowly {
            for byte in bytes.prefix(20) {
                _ = [byte].withUnsafeBytes { send(socket, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
                Thread.sleep(forTimeInterval: 0.05)
                sent += 1
            }
        }
        _ = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        _ = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    }

    /// This process's resident memory, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
