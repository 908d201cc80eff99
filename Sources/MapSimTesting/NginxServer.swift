import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx serving a folder on 127.0.0.1, for tests of what users point mapsim at: keep-alive
/// connections, `Cache-Control: max-age`, ETags and `Last-Modified`, as nginx sends them. Started on a
/// free port with a generated configuration (one process, nothing outside its own temporary folder),
/// stopped with `stop()` or when released. nginx comes from the Debian package `nginx-light`, which
/// the README's set-up and `.ci/run` install.
public final class NginxServer: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let process = Process()
    private let folder: FixtureDirectory

    /// The server's address, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts nginx serving `root`, each answer with `Cache-Control: max-age=MAXAGE` when `maxAge` is
    /// given, keeping idle connections open for `keepAlive` seconds; waits until it accepts connections.
    /// With `precompressed`, a file with a `.gz` beside it is sent as that, `Content-Encoding: gzip`, to
    /// a client that accepts gzip (`gzip_static`), as tile servers send tiles.
    public init(serving root: String, maxAge: Int? = nil, keepAlive: Int = 75, precompressed: Bool = false) throws {
        guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            throw TestSupportError(.notInstalled, "nginx is not installed (Debian: apt-get install nginx-light; the README's set-up and .ci/run do it)")
        }
        folder = try FixtureDirectory()
        port = try LoopbackPort.free()
        let prefix = folder.path
        let cacheControl = maxAge.map { "        add_header Cache-Control \"max-age=\($0)\" always;\n" } ?? ""
        let gzipStatic = precompressed ? "        gzip_static on;\n" : ""
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 512; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
                types { application/json json; application/x-protobuf pbf mvt; image/png png; image/jpeg jpg; image/webp webp; }
                default_type application/octet-stream;
                keepalive_timeout \(keepAlive)s;
                keepalive_requests 100000;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root);
                    etag on;
            \(cacheControl)\(gzipStatic)    }
            }

            """
        let path = try folder.write("nginx.conf", configuration)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", prefix, "-c", path, "-e", "\(prefix)/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopbackPort.waitUntilListening(port) else {
            stop()
            let log = (try? String(contentsOfFile: "\(prefix)/error.log", encoding: .utf8)) ?? ""
            throw TestSupportError(.cannotStart, "nginx did not start listening on port \(port): \(log)")
        }
    }

    /// Stops nginx and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
