import Basics
import Foundation
import Transfer

/// The response head of the current attempt, handed over from the transfer thread.
package final class SeenHead: @unchecked Sendable {
  package init() {}

  private let lock = NSLock()
  private var stored: (ResponseHead, Int64?)?

  package var value: (ResponseHead, Int64?)? { lock.withLock { stored } }

  package func set(_ head: ResponseHead, _ total: Int64?) {
    lock.withLock { stored = (head, total) }
  }
}
