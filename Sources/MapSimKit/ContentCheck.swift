import Foundation
import MapSim
import MapSimCache
import MapSimContent
import MapSimJSON

/// The light content version check of a data manager (Pointr's is the reference): when the site's
/// manifest in the cache is older than the maximum age (15 minutes) — or when forced — one
/// conditional request for `manifest.json` next to the style; only when the server's version is
/// higher are the items whose hashes changed downloaded, checked, stored and pinned as the site's
/// new content, the previous version unpinned afterwards. A download that fails leaves the cache as
/// it was: the old version whole, and the next check tries again.
public enum ContentCheck {
    /// What a check did.
    public struct Report: Sendable, Equatable {
        /// The site, once a manifest is known.
        public var site: String?
        /// The version in the cache before, if any.
        public var previousVersion: Int?
        /// The version in the cache after.
        public var version: Int?
        /// Whether no request was made: the manifest in the cache was younger than the maximum age.
        public var skipped: Bool
        /// The items downloaded.
        public var changed: [ContentItem]
        /// What went wrong, per item or for the check.
        public var failures: [String]
    }

    /// Whether a check of the style's site ever reached the server from this cache (an imported
    /// package's manifest has no expiry; one a check stored has).
    public static func hasCheckedOnline(styleURL: String, cache: SQLiteCache) async -> Bool {
        await cache.load(Resource(url: URLResolver.resolve("manifest.json", against: styleURL), kind: .unknown)).expires != nil
    }

    /// Runs a check of the content of the style at `styleURL` through `environment` (its cache and
    /// network), at `now`; `force` checks whatever the age.
    public static func run(styleURL: String, environment: LoadingEnvironment, force: Bool, maximumAge: Int64 = 15 * 60,
                           now: HTTPDate = HTTPDate(secondsSince1970: Int64(Date().timeIntervalSince1970))) async throws(ContentError) -> Report {
        guard let cache = environment.cache else { throw ContentError("a content check needs a cache") }
        guard let network = environment.backends.network else { throw ContentError("a content check needs the network") }
        let manifestURL = URLResolver.resolve("manifest.json", against: styleURL)
        let manifestResource = Resource(url: manifestURL, kind: .unknown)
        let cached = await cache.load(manifestResource)
        let previous = cached.data.flatMap { try? ContentManifest(json: $0) }
        var report = Report(site: previous?.site, previousVersion: previous?.version, version: previous?.version, skipped: false, changed: [], failures: [])
        if !force, previous != nil, let expires = cached.expires, expires.secondsSince1970 > now.secondsSince1970 {
            report.skipped = true
            return report
        }
        var request = manifestResource
        request.prior = previous.map { _ in Resource.Prior(modified: cached.modified, expires: cached.expires, etag: cached.etag, data: cached.data) }
        let answer = await network.load(request)
        if let error = answer.error {
            report.failures.append("manifest \(manifestURL): \(error.message)")
            return report
        }
        let expires = HTTPDate(secondsSince1970: now.secondsSince1970 + maximumAge)
        func remember(_ bytes: [UInt8], etag: String?) {
            var response = Response.success(bytes, source: .network)
            response.etag = etag
            response.expires = expires
            cache.store(manifestResource, response)
        }
        guard let bytes = answer.data, !answer.notModified else {
            // 304: the cached manifest is current; it is good for another maximum age.
            if let data = cached.data { remember(data, etag: cached.etag) }
            await cache.flush()
            return report
        }
        let manifest = try ContentManifest(json: bytes)
        report.site = manifest.site
        if let previous, manifest.site == previous.site, manifest.version <= previous.version {
            remember(bytes, etag: answer.etag)
            await cache.flush()
            return report
        }
        let known = Set((previous?.items ?? []).map { $0.url + " " + $0.sha256 })
        var downloaded: [ContentItem: [UInt8]] = [:]
        for item in manifest.items where !known.contains(item.url + " " + item.sha256) {
            let address = ContentImport.url(of: item, styleURL: styleURL)
            let response = await network.load(Resource(url: address, kind: .unknown))
            guard let data = response.data, response.error == nil else {
                report.failures.append("item \(item.url): \(response.error?.message ?? "no content")")
                continue
            }
            let hash = ContentManifest.sha256(data)
            guard data.count == item.size, hash == item.sha256 else {
                report.failures.append("item \(item.url): the server sent \(data.count) bytes with SHA-256 \(hash), the manifest says \(item.size) bytes, \(item.sha256)")
                continue
            }
            downloaded[item] = data
            report.changed.append(item)
        }
        guard report.failures.isEmpty else {
            report.changed = []
            return report
        }
        var documents: [(item: ContentItem, bytes: [UInt8])] = []
        for item in manifest.items where item.kind == .tilejson || item.kind == .style {
            if let data = downloaded[item] {
                documents.append((item, data))
            } else if let data = await cache.load(Resource(url: ContentImport.url(of: item, styleURL: styleURL), kind: .unknown)).data {
                documents.append((item, data))
            }
        }
        _ = try await ContentImport.store(manifest.items.map { (item: $0, bytes: downloaded[$0]) }, of: manifest, styleURL: styleURL,
                                          documents: documents, cache: cache)
        remember(bytes, etag: answer.etag)
        await cache.flush()
        report.version = manifest.version
        return report
    }
}
