import Testing

@testable import TinyDependencyValidation

@Suite("The check's JSON reader reads what its writer writes, and nothing else")
struct JSONValueTests {
  @Test(arguments: [
    "plain", "with \"quotes\" and \\ backslashes", "tab\tnew\nline\r", "\u{1}control\u{1F}",
    "Ünïcödé ✓ 🧪", "",
  ])
  func aQuotedStringReadsBackTheSame(text: String) {
    #expect(JSONValue.parse(JSONValue.quoted(text)) == .string(text))
  }

  @Test func objectsArraysAndLiteralsParse() {
    let parsed = JSONValue.parse(#" {"a": [1, -2.5e1, true, false, null], "b": {"c": "d"}} "#)
    #expect(
      parsed
        == .object([
          "a": .array([.number(1), .number(-25), .bool(true), .bool(false), .null]),
          "b": .object(["c": .string("d")]),
        ])
    )
    #expect(JSONValue.parse(#""\u00e9\u0041""#) == .string("éA"))
  }

  @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "\"open", "{} {}", "nul", "[1 2]"])
  func malformedTextIsRejected(text: String) {
    #expect(JSONValue.parse(text) == nil)
  }
}
