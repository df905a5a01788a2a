import Synchronization

/// A value that several tasks change, behind a lock, and that escaping closures can share: a
/// local `Mutex` cannot be captured by one.
public final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  public init(_ value: Value) {
    mutex = Mutex(value)
  }

  public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result
  {
    try mutex.withLock { try body(&$0) }
  }
}
