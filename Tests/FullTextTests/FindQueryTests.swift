import XCTest

@testable import FullText

/// What a person types, as terms and as FTS5's syntax: words, phrases, prefixes and
/// exclusions, and nothing else ever reaches FTS5 as syntax.
final class FindQueryTests: XCTestCase {
  private func expression(_ arguments: String...) -> String? {
    FindQuery(arguments).expression()
  }

  func testWordsPhrasesPrefixesAndExclusions() {
    XCTAssertEqual(expression("voyager", "probes"), #""voyager" AND "probes""#)
    XCTAssertEqual(expression(#""golden record" voy*"#), #""golden record" AND "voy"*"#)
    XCTAssertEqual(expression("copper -festival"), #"("copper") NOT ("festival")"#)
    XCTAssertEqual(
      expression("copper", "-festival", #"-"brass band""#),
      #"("copper") NOT ("festival" OR "brass band")"#)
    XCTAssertEqual(expression(#""golden rec"*"#), #""golden rec"*"#)
  }

  func testOperatorsAndFiltersAreWords() {
    XCTAssertEqual(expression("cats OR dogs"), #""cats" AND "OR" AND "dogs""#)
    XCTAssertEqual(expression("NEAR(voyager"), #""NEAR voyager""#)
    XCTAssertEqual(expression("title:voyager"), #""title voyager""#)
    XCTAssertEqual(expression("a*b"), #""a b""#)
    XCTAssertEqual(expression("(x) ^y {z}"), #""x" AND "y" AND "z""#)
  }

  func testAnUnbalancedQuoteIsWords() {
    XCTAssertEqual(expression(#""unbalanced"#), #""unbalanced""#)
    XCTAssertEqual(expression(#"golden "record probes"#), #""golden" AND "record" AND "probes""#)
  }

  func testNothingToLookFor() {
    XCTAssertNil(expression("*"))
    XCTAssertNil(expression("-festival"))
    XCTAssertNil(expression(#""""#, "-", "!!!", "*"))
    XCTAssertTrue(FindQuery(["*"]).isEmpty)
  }

  func testAccentsCaseAndScriptsAreKeptForTheTokenizer() {
    XCTAssertEqual(expression("Café NAÏVE"), #""Café" AND "NAÏVE""#)
    XCTAssertEqual(expression("東京 Ελλάδα"), #""東京" AND "Ελλάδα""#)
    XCTAssertEqual(FindQuery.fold("Ελλάδα"), "ελλαδα")
    XCTAssertEqual(FindQuery.fold("NAÏVE"), "naive")
  }

  func testRepeatsCountOnceAndAFloodOfWordsIsCut() {
    XCTAssertEqual(expression("probe probe PROBE"), #""probe" AND "PROBE""#)
    let flood = (1...5000).map { "w\($0)" }.joined(separator: " ")
    XCTAssertEqual(FindQuery([flood]).required.count, FindQuery.maxTerms)
  }

  func testFieldsRestrictTheWholeQuery() {
    XCTAssertEqual(
      FindQuery(["copper -festival"]).expression(in: [.notes, .title]),
      #"{title notes} : (("copper") NOT ("festival"))"#)
    XCTAssertEqual(
      FindQuery(["copper"]).expression(in: Set(FindField.allCases)), #""copper""#)
  }
}
