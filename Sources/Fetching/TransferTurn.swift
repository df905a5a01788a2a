import Basics
import Foundation

/// One download's hold on a connection to its host (a `HostSlots` slot), taken for the
/// transfer only: the file's verify, sync, link and record need no connection, so the next
/// episode's bytes come in meanwhile. Taken before the row says "downloading", so `status`
/// shows as many downloading as there are transfers, the others queued. Used by one task
/// at a time; taking it twice or giving it back twice is harmless.
package final class TransferTurn {
  private let slots: HostSlots
  private let host: String
  private var held = false

  package init(slots: HostSlots, host: String) {
    self.slots = slots
    self.host = host
  }

  package func take() async {
    guard !held else { return }
    await slots.acquire(host: host)
    held = true
  }

  package func giveBack() async {
    guard held else { return }
    held = false
    await slots.release(host: host)
  }
}
