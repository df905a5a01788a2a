import Foundation
import LoopbackServer
import Privacy
import Transfer
import XCTest

/// `HTTPClient.send`: the requests a sync server's API needs (POST and PUT with a body, header
/// fields, a login) and every answer handed back, refusals with their bodies included.
final class APIRequestTests: XCTestCase {
  private var server: LoopbackServer!

  override func setUpWithError() throws {
    server = try LoopbackServer()
  }

  override func tearDownWithError() throws {
    server.stop()
  }

  private func request(_ path: String, _ method: HTTPMethod, body: String? = nil)
    -> TransferRequest
  {
    var request = TransferRequest(url: server.url(path), options: TransferOptions())
    request.method = method
    request.body = body.map { Data($0.utf8) }
    return request
  }

  func testAPOSTSendsItsBodyHeadersAndLogin() async throws {
    server.set("/api", .text(#"{"timestamp": 12}"#, contentType: "application/json"))
    var post = request("/api", .post, body: #"{"add": ["https://a.example/feed"]}"#)
    post.headers = [("Content-Type", "application/json"), ("Cookie", "sessionid=abc")]
    post.credentials = FeedCredentials(user: "alice", password: "wonder land")

    let response = try await HTTPClient().send(post)

    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"timestamp": 12}"#)
    let sent = try XCTUnwrap(server.requests(for: "/api").last)
    XCTAssertEqual(sent.method, "POST")
    XCTAssertEqual(
      String(decoding: sent.body, as: UTF8.self), #"{"add": ["https://a.example/feed"]}"#)
    XCTAssertEqual(sent.header("Content-Type"), "application/json")
    XCTAssertEqual(sent.header("Cookie"), "sessionid=abc")
    XCTAssertEqual(
      sent.header("Authorization"), "Basic " + Data("alice:wonder land".utf8).base64EncodedString())
  }

  func testAPOSTWithoutABodySendsAnEmptyOne() async throws {
    server.set("/login", .text("ok"))

    _ = try await HTTPClient().send(request("/login", .post))

    let sent = try XCTUnwrap(server.requests(for: "/login").last)
    XCTAssertEqual(sent.method, "POST")
    XCTAssertEqual(sent.header("Content-Length"), "0")
    XCTAssertTrue(sent.body.isEmpty)
  }

  func testAPUTSendsItsBody() async throws {
    server.set("/list", .text(""))

    _ = try await HTTPClient().send(request("/list", .put, body: #"["https://a.example/feed"]"#))

    let sent = try XCTUnwrap(server.requests(for: "/list").last)
    XCTAssertEqual(sent.method, "PUT")
    XCTAssertEqual(String(decoding: sent.body, as: UTF8.self), #"["https://a.example/feed"]"#)
  }

  /// libcurl asks `Expect: 100-continue` before a body over 1 MiB (thousands of episode actions)
  /// and waits a second for an answer PHP's server never sends; the body must go at once,
  /// whole, and byte for byte.
  func testALargeBodyGoesWholeWithoutAskingToContinue() async throws {
    server.set("/actions", .text("{}"))
    let body = String(repeating: "é\u{0}x", count: 400_000)

    _ = try await HTTPClient().send(request("/actions", .post, body: body))

    let sent = try XCTUnwrap(server.requests(for: "/actions").last)
    XCTAssertNil(sent.header("Expect"))
    XCTAssertEqual(sent.body, Data(body.utf8), "every byte, the zero bytes too")
  }

  /// An `http://` server address that moved to `https://` answers a POST with 301: the POST
  /// must arrive there as a POST with its body, not as an empty GET.
  func testAPOSTFollowsAPermanentRedirectAsAPOST() async throws {
    server.set("/old", .redirect(to: "/new", status: 301))
    server.set("/new", .text("{}"))

    let response = try await HTTPClient().send(request("/old", .post, body: #"{"add": []}"#))

    XCTAssertEqual(response.url, server.url("/new"))
    let sent = try XCTUnwrap(server.requests(for: "/new").last)
    XCTAssertEqual(sent.method, "POST")
    XCTAssertEqual(String(decoding: sent.body, as: UTF8.self), #"{"add": []}"#)
  }

  func testARefusalComesBackWithItsBody() async throws {
    let refusal = #"{"code": 401, "message": "Invalid username/password"}"#
    server.set("/login", .text(refusal, contentType: "application/json").withStatus(401))

    let response = try await HTTPClient().send(request("/login", .post))

    XCTAssertEqual(response.status, 401)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), refusal)
  }

  func testAHeaderWithALineBreakIsLeftOut() async throws {
    server.set("/api", .text("{}"))
    var get = request("/api", .get)
    get.headers = [("Cookie", "a=1\r\nX-Injected: yes"), ("Accept", "application/json")]

    _ = try await HTTPClient().send(get)

    let sent = try XCTUnwrap(server.requests(for: "/api").last)
    XCTAssertNil(sent.header("X-Injected"))
    XCTAssertNil(sent.header("Cookie"))
    XCTAssertEqual(sent.header("Accept"), "application/json")
  }

  func testAGETSendsNoBody() async throws {
    server.set("/api", .text("{}"))

    _ = try await HTTPClient().send(request("/api", .get, body: "ignored"))

    let sent = try XCTUnwrap(server.requests(for: "/api").last)
    XCTAssertEqual(sent.method, "GET")
    XCTAssertTrue(sent.body.isEmpty)
  }
}
