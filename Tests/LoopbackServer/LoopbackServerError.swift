import Glibc

/// Why the loopback server could not start.
public enum LoopbackServerError: Error, CustomStringConvertible, Equatable {
  case socketCouldNotBeCreated(errno: Int32)
  case portCouldNotBeBound(port: UInt16, errno: Int32)
  case socketCouldNotListen(errno: Int32)

  public var description: String {
    switch self {
    case .socketCouldNotBeCreated(let code):
      "The test server could not create a socket: \(Self.reason(code))."
    case .portCouldNotBeBound(let port, let code):
      "The test server could not bind 127.0.0.1:\(port): \(Self.reason(code))."
    case .socketCouldNotListen(let code):
      "The test server could not listen on its socket: \(Self.reason(code))."
    }
  }

  private static func reason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
