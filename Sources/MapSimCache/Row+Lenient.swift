import GRDB

extension Row {
    /// The value at `index` as `T`, or nil when it is NULL or of a kind that does not convert. A
    /// database another program wrote (or damaged) may hold anything in any column — SQLite's
    /// types are the values', not the columns' — and GRDB's typed subscript traps on a mismatch.
    func lenient<T: DatabaseValueConvertible>(_ index: Int) -> T? {
        T.fromDatabaseValue(self[index] as DatabaseValue)
    }
}
