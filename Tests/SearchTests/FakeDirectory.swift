import Foundation
import Search
import Synchronization
import Transfer
import XCTest

/// A `DirectoryFetch` that answers from Fixtures/ (or with a status, or a transfer failure)
/// and remembers each request's URL and header fields.
final class FakeDirectory: Sendable {
  enum Answer: Sendable {
    case body(Data, status: Int, headers: [String: String])
    case failure(TransferError)
  }

  struct Request: Sendable {
    var url: String
    var headers: [String: String]
  }

  private let answer: Answer
  private let asked = Mutex<[Request]>([])

  init(_ answer: Answer) { self.answer = answer }

  /// `Fixtures/<name>` with `status`.
  convenience init(
    fixture name: String, status: Int = 200, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let resources = try XCTUnwrap(Bundle.module.resourceURL, file: file, line: line)
    let data = try Data(contentsOf: resources.appendingPathComponent("Fixtures/\(name)"))
    self.init(.body(data, status: status, headers: [:]))
  }

  convenience init(status: Int, body: String = "", headers: [String: String] = [:]) {
    self.init(.body(Data(body.utf8), status: status, headers: headers))
  }

  var requests: [Request] { asked.withLock { $0 } }
  var requestedURLs: [String] { requests.map(\.url) }

  var fetch: DirectoryFetch {
    { url, headers in
      self.asked.withLock {
        $0.append(
          Request(
            url: url,
            headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })))
      }
      switch self.answer {
      case .body(let body, let status, let headers):
        return HTTPResponse(status: status, url: url, headers: headers, body: body)
      case .failure(let error):
        throw error
      }
    }
  }
}

/// Asserts that `body` throws exactly `expected`.
func assertThrows(
  _ expected: SearchError, file: StaticString = #filePath, line: UInt = #line,
  _ body: () async throws -> Void
) async {
  do {
    try await body()
    XCTFail("expected \(expected)", file: file, line: line)
  } catch {
    XCTAssertEqual(error as? SearchError, expected, file: file, line: line)
  }
}
