import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MapSimJSON
import Synchronization

/// A real browser for tests of mapsim's pages: Debian's Chromium, headless, driven over the Chrome
/// DevTools protocol on a pipe (`--remote-debugging-pipe`: the browser reads commands on its file
/// descriptor 3 and writes answers and events on 4, each a JSON message ended by a NUL). WebGL runs
/// on SwiftShader, so MapLibre GL JS draws with no GPU. `.ci/run` and the README's set-up install
/// Chromium; without it `launch()` fails with the line that installs it.
///
/// ```swift
/// let browser = try HeadlessBrowser.launch()
/// let page = try await browser.open("file:///tmp/report.html")
/// let rows = try await page.evaluate("document.querySelectorAll('[data-kind]').length")
/// await browser.close()
/// ```
public final class HeadlessBrowser: Sendable {
    /// The line that installs what the browser needs.
    public static let setUp = "apt-get update && apt-get install -y chromium   # Debian/Ubuntu as root; .ci/run and the README's set-up do it"

    private let process: pid_t
    private let connection: DevToolsConnection
    private let profile: FixtureDirectory

    private init(process: pid_t, connection: DevToolsConnection, profile: FixtureDirectory) {
        self.process = process
        self.connection = connection
        self.profile = profile
    }

    /// The Chromium binary: `$MAPSIM_CHROMIUM`, Debian's `/usr/lib/chromium/chromium`, or
    /// `chromium` / `chromium-browser` / `google-chrome` on the `PATH`.
    public static func binary() throws(TestSupportError) -> String {
        var candidates = [ProcessInfo.processInfo.environment["MAPSIM_CHROMIUM"], "/usr/lib/chromium/chromium"].compactMap { $0 }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] { candidates.append("\(folder)/\(name)") }
        }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw TestSupportError(.notInstalled, "no Chromium for the page tests (looked at $MAPSIM_CHROMIUM, /usr/lib/chromium/chromium and the PATH); install it:\n  \(setUp)")
        }
        return found
    }

    /// Starts a headless browser with a fresh profile and a `width`×`height` window.
    public static func launch(width: Int = 1400, height: Int = 1000) throws -> HeadlessBrowser {
        let binary = try binary()
        let profile = try FixtureDirectory()
        // Pipes closed on exec, moved above 9 so that making the child's 3 and 4 of them clobbers
        // neither; only 3 and 4 (dup2 leaves them open) reach the browser.
        func pipeAboveNine() throws(TestSupportError) -> [Int32] {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw TestSupportError(.cannotStart, "no pipe for the browser: \(String(cString: strerror(errno)))") }
            let moved = ends.map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
            for end in ends { _ = Glibc.close(end) }
            return moved
        }
        let toBrowser = try pipeAboveNine()
        let fromBrowser = try pipeAboveNine()
        let arguments = [binary, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)/profile",
                         "--window-size=\(width),\(height)", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                         "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--disable-extensions", "--mute-audio", "--hide-scrollbars", "--disable-breakpad",
                         "--password-store=basic", "about:blank"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        let log = profile.path + "/chromium.log"
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // Nothing else of this process reaches the browser: a test's listening socket or a file
        // it is writing, held open by the browser, would outlive the test's own close.
        try closeOthers(in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that closing it ends its helpers too.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = profile.path
        environment["XDG_CONFIG_HOME"] = profile.path + "/config"
        environment["XDG_CACHE_HOME"] = profile.path + "/cache"
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var process: pid_t = 0
        let spawned = posix_spawn(&process, binary, &actions, &attributes, argv, envp)
        _ = Glibc.close(toBrowser[0])
        _ = Glibc.close(fromBrowser[1])
        guard spawned == 0 else {
            _ = Glibc.close(toBrowser[1])
            _ = Glibc.close(fromBrowser[0])
            throw TestSupportError(.cannotStart, "\(binary) could not be started: \(String(cString: strerror(spawned)))")
        }
        let connection = DevToolsConnection(input: toBrowser[1], output: fromBrowser[0])
        let browser = HeadlessBrowser(process: process, connection: connection, profile: profile)
        connection.startReading()
        return browser
    }

    /// Adds to `actions` the closing of every descriptor above 4: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does
    /// not declare.
    private static func closeOthers(in actions: inout posix_spawn_file_actions_t) throws(TestSupportError) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            throw TestSupportError(.cannotStart, "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has)")
        }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        guard closeFrom(&actions, 5) == 0 else { throw TestSupportError(.cannotStart, "posix_spawn_file_actions_addclosefrom_np failed") }
    }

    /// Opens `url` in a new tab and waits until it has loaded (its `load` event).
    public func open(_ url: String, timeout: Duration = .seconds(30)) async throws -> BrowserPage {
        let target = try await connection.call("Target.createTarget", [("url", .string("about:blank"))], timeout: timeout)
        guard let targetID = target["targetId"]?.stringValue else { throw TestSupportError(.cannotStart, "the browser made no tab: \(target)") }
        let attached = try await connection.call("Target.attachToTarget", [("targetId", .string(targetID)), ("flatten", .bool(true))], timeout: timeout)
        guard let session = attached["sessionId"]?.stringValue else { throw TestSupportError(.cannotStart, "the browser attached no session: \(attached)") }
        let page = BrowserPage(connection: connection, session: session)
        for domain in ["Runtime.enable", "Page.enable", "Log.enable"] { _ = try await connection.call(domain, [], session: session, timeout: timeout) }
        try await page.navigate(url, timeout: timeout)
        return page
    }

    /// Closes the browser and ends its processes.
    public func close() async {
        _ = try? await connection.call("Browser.close", [], timeout: .seconds(5))
        connection.close()
        kill(-process, SIGKILL)
        var status: Int32 = 0
        waitpid(process, &status, 0)
    }
}

/// One tab of a `HeadlessBrowser`: evaluate script in it, wait for what it shows, read the errors
/// its scripts raised, take a screenshot.
public final class BrowserPage: Sendable {
    private let connection: DevToolsConnection
    private let session: String

    init(connection: DevToolsConnection, session: String) {
        self.connection = connection
        self.session = session
    }

    /// Goes to `url` and waits for its `load` event.
    public func navigate(_ url: String, timeout: Duration = .seconds(30)) async throws {
        let loaded = connection.expect(event: "Page.loadEventFired", session: session)
        let answer = try await connection.call("Page.navigate", [("url", .string(url))], session: session, timeout: timeout)
        if let error = answer["errorText"]?.stringValue { throw TestSupportError(.cannotStart, "\(url) did not open: \(error)") }
        try await loaded.wait(timeout: timeout)
    }

    /// The value of `expression` (awaited when it is a promise), as JSON.
    public func evaluate(_ expression: String, timeout: Duration = .seconds(30)) async throws -> JSONValue {
        let answer = try await connection.call("Runtime.evaluate", [("expression", .string(expression)), ("returnByValue", .bool(true)), ("awaitPromise", .bool(true))],
                                               session: session, timeout: timeout)
        if let exception = answer["exceptionDetails"] {
            throw TestSupportError(.cannotStart, "the page's script failed: \(exception["exception"]?["description"]?.stringValue ?? "\(exception)")")
        }
        return answer["result"]?["value"] ?? .null
    }

    /// Waits until `expression` is true in the page; returns how long that took.
    @discardableResult
    public func wait(until expression: String, timeout: Duration = .seconds(30)) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < timeout {
            if try await evaluate("!!(\(expression))") == .bool(true) { return clock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError(.timedOut, "the page never showed \(expression) in \(timeout)")
    }

    /// The errors the page's scripts raised or logged so far: uncaught exceptions, `console.error`
    /// and the browser's own error log entries (a resource that failed, say).
    public var errors: [String] {
        connection.events(session: session).compactMap { event -> String? in
            let parameters = event["params"] ?? .null
            switch event["method"]?.stringValue {
            case "Runtime.exceptionThrown":
                let details = parameters["exceptionDetails"]
                return details?["exception"]?["description"]?.stringValue ?? details?["text"]?.stringValue ?? "an exception"
            case "Runtime.consoleAPICalled" where parameters["type"]?.stringValue == "error":
                return "console.error: " + (parameters["args"]?.arrayValue ?? []).map { $0["value"]?.stringValue ?? $0["description"]?.stringValue ?? "" }.joined(separator: " ")
            case "Log.entryAdded" where parameters["entry"]?["level"]?.stringValue == "error":
                return "log: " + (parameters["entry"]?["text"]?.stringValue ?? "") + " " + (parameters["entry"]?["url"]?.stringValue ?? "")
            default:
                return nil
            }
        }
    }

    /// Writes a PNG of the whole page (`fullPage`) or of the window to `path`.
    public func screenshot(to path: String, fullPage: Bool = true) async throws {
        let answer = try await connection.call("Page.captureScreenshot", [("format", .string("png")), ("captureBeyondViewport", .bool(fullPage))],
                                               session: session, timeout: .seconds(60))
        guard let encoded = answer["data"]?.stringValue, let data = Data(base64Encoded: encoded) else {
            throw TestSupportError(.cannotStart, "the browser took no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// The DevTools protocol over a pair of pipes: commands out with an id, answers matched back to
/// them, events kept per session for the pages to read.
final class DevToolsConnection: Sendable {
    /// An event a page waits for.
    final class Expectation: Sendable {
        private let happened = Mutex(false)

        func fulfil() {
            happened.withLock { $0 = true }
        }

        func wait(timeout: Duration) async throws {
            let clock = ContinuousClock()
            let start = clock.now
            while clock.now - start < timeout {
                if happened.withLock({ $0 }) { return }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw TestSupportError(.timedOut, "the page did not load in \(timeout)")
        }
    }

    private struct State {
        var nextID = 0
        var answers: [Int: JSONValue] = [:]
        var events: [String: [JSONValue]] = [:]
        var expectations: [(method: String, session: String, expectation: Expectation)] = []
        var closed = false
    }

    private let input: Int32
    private let output: Int32
    private let state = Mutex(State())

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Reads the browser's messages on a thread of its own until the pipe closes.
    func startReading() {
        let output = output
        Thread.detachNewThread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let end = pending.firstIndex(of: 0) {
                    let message = Array(pending[..<end])
                    pending.removeSubrange(...end)
                    if let value = try? JSONParser.parse(message) { receive(value) }
                }
            }
            state.withLock { $0.closed = true }
            _ = Glibc.close(output)
        }
    }

    private func receive(_ message: JSONValue) {
        if let id = message["id"]?.numberValue {
            state.withLock { $0.answers[Int(id)] = message }
            return
        }
        let session = message["sessionId"]?.stringValue ?? ""
        let method = message["method"]?.stringValue ?? ""
        let fulfilled = state.withLock { state -> [Expectation] in
            state.events[session, default: []].append(message)
            let matching = state.expectations.filter { $0.method == method && $0.session == session }.map(\.expectation)
            state.expectations.removeAll { $0.method == method && $0.session == session }
            return matching
        }
        for expectation in fulfilled { expectation.fulfil() }
    }

    /// Sends a command and waits for its answer's `result`; an error answer throws.
    func call(_ method: String, _ parameters: [(String, JSONValue)], session: String? = nil, timeout: Duration) async throws -> JSONValue {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        var message = JSONObject([("id", .number(Double(id))), ("method", .string(method)), ("params", .object(JSONObject(parameters)))])
        if let session { message["sessionId"] = .string(session) }
        let bytes = Array(JSONWriter.string(.object(message)).utf8) + [0]
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(input, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { throw TestSupportError(.cannotStart, "the browser closed its DevTools pipe (\(method))") }
            written += count
        }
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < timeout {
            let (answer, closed) = state.withLock { state in (state.answers.removeValue(forKey: id), state.closed) }
            if let answer {
                if let error = answer["error"] { throw TestSupportError(.cannotStart, "\(method): \(JSONWriter.string(error))") }
                return answer["result"] ?? .null
            }
            if closed { throw TestSupportError(.cannotStart, "the browser exited before answering \(method)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestSupportError(.timedOut, "the browser did not answer \(method) in \(timeout)")
    }

    /// An expectation fulfilled by the next `method` event of `session`.
    func expect(event method: String, session: String) -> Expectation {
        let expectation = Expectation()
        state.withLock { $0.expectations.append((method, session, expectation)) }
        return expectation
    }

    /// The events of `session` so far.
    func events(session: String) -> [JSONValue] {
        state.withLock { $0.events[session] ?? [] }
    }

    /// Closes the pipe to the browser.
    func close() {
        _ = Glibc.close(input)
    }
}
