import Foundation
import Search
import Synchronization
import Transfer
import XCTest

/// Canned iTunes answers from Fixtures/iTunes, and a fake `fetch` that serves them and
/// remembers which URLs the client asked for.
enum ITunesFixture {
  static func data(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> Data
  {
    let resources = try XCTUnwrap(Bundle.module.resourceURL, file: file, line: line)
    return try Data(contentsOf: resources.appendingPathComponent("Fixtures/iTunes/\(name)"))
  }
}

final class FakeITunes: Sendable {
  enum Answer: Sendable {
    case body(Data)
    case failure(TransferError)
  }

  private let answer: Answer
  private let asked = Mutex<[String]>([])

  init(_ answer: Answer) { self.answer = answer }

  convenience init(fixture name: String) throws {
    self.init(.body(try ITunesFixture.data(name)))
  }

  var requestedURLs: [String] { asked.withLock { $0 } }

  func client(baseURL: String = "http://127.0.0.1:9") -> ITunesClient {
    ITunesClient(baseURL: baseURL) { url in
      self.asked.withLock { $0.append(url) }
      switch self.answer {
      case .body(let body): return HTTPResponse(status: 200, url: url, headers: [:], body: body)
      case .failure(let error): throw error
      }
    }
  }
}
