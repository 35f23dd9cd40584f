/// Values that are costly to make and used by one thread at a time (a record processor with its
/// GEOS context and render cache; a lookup's locator), lent to whichever thread or task asks: a
/// call costs two short critical sections instead of a value's set-up, and as many values exist
/// as callers were ever concurrent.
///
/// `Sendable` although its values need not be: a value is in the pool (under the lock) or lent
/// to exactly one caller, never both.
package final class LendingPool<Value>: Sendable {
    private let idle = Monitor<[Value]>([])
    /// Idle values kept, at most: a burst of more concurrent callers makes more, then drops them.
    package let idleLimit: Int

    package init(idleLimit: Int) {
        self.idleLimit = idleLimit
    }

    /// Runs `body` with an idle value, or with a new one from `make` when none is idle, then
    /// puts the value back.
    package func withBorrowed<R, E: Error>(make: () throws(E) -> Value,
                                           _ body: (inout Value) -> R) throws(E) -> R {
        var value: Value
        if let lent = idle.withLock({ $0.popLast() }) {
            value = lent
        } else {
            value = try make()
        }
        let result = body(&value)
        idle.withLock { values in
            if values.count < idleLimit { values.append(value) }
        }
        return result
    }
}
