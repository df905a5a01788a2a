import Basics
import Fetching
import Foundation

/// One job's place among those a download manager runs at once: first among the jobs begun
/// (given with the job by the manager's queue, capped per host, so one server's queue never
/// keeps the others' jobs from starting), then, once its transfer is over, among the jobs
/// finishing (`finishing`).
///
/// The trade at the end of the transfer is what lets finish batches grow: a job waiting for
/// its batch to be made durable no longer holds its host's place, so the next episode from
/// that host begins meanwhile, and the episodes that finish together are made durable
/// together (`FinishBatch`). The finishing places are capped too, which keeps the open partial
/// files bounded when the disk is slower than the network. Used by one task at a time; each
/// step is harmless to repeat.
package final class JobTurn {
  private enum Place {
    case none
    case begun
    case finishing
  }

  private let finishing: HostSlots
  /// Gives the begun place back to whoever handed it out.
  private let releaseBegun: @Sendable () async -> Void
  private var place = Place.begun

  /// A turn holding its begun place already.
  package init(finishing: HostSlots, releaseBegun: @escaping @Sendable () async -> Void) {
    self.finishing = finishing
    self.releaseBegun = releaseBegun
  }

  /// The transfer is over: a finishing place first (waiting while they are all taken), then
  /// the begun place goes to the next job.
  package func finishing() async {
    guard case .begun = place else { return }
    await finishing.acquire(host: Self.anyHost)
    place = .finishing
    await releaseBegun()
  }

  package func end() async {
    switch place {
    case .none: return
    case .begun: await releaseBegun()
    case .finishing: await finishing.release(host: Self.anyHost)
    }
    place = .none
  }

  /// Finishing is local work: one cap for all hosts.
  private static let anyHost = ""
}
