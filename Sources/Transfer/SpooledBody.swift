import Basics

#if canImport(Glibc)
  import Glibc
#endif

/// A response body too large to hold in memory, waiting in an `AnonymousFile` (a 90 MB feed
/// held as `Data` while its parse runs on top of it would be twice the memory of parsing the
/// file).
public final class SpooledBody: Sendable {
  package let descriptor: Int32
  public let count: Int

  package init(descriptor: Int32, count: Int) {
    self.descriptor = descriptor
    self.count = count
  }

  deinit {
    close(descriptor)
  }
}
