/// A write waiting for the next group commit of an `OfflineDatabase`.
enum PendingWrite: Sendable {
    /// Store a body (nil: no content) with its headers, as MapLibre's `put` does; with a region,
    /// the row becomes part of it (and is not subject to eviction).
    case put(RowKey, kind: Int, StoredBody, headers: StoredHeaders, accessed: Int64, region: Int64?)
    /// A 304 confirmed the stored copy: new expiry and revalidation flag, and the time of use.
    case refresh(RowKey, expires: Int64?, mustRevalidate: Bool, accessed: Int64)
    /// The row was read: the time of use, for least-recently-used eviction.
    case touch(RowKey, accessed: Int64)
    /// The row, already stored, becomes part of a region (MapLibre's `markUsed`).
    case link(RowKey, region: Int64)

    /// The bytes of the body it stores (none but a `put`'s).
    var byteCount: Int {
        guard case .put(_, _, let body, _, _, _) = self else { return 0 }
        return body.data?.count ?? 0
    }
}
