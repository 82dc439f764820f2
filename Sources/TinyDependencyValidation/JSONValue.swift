/// A JSON value, parsed from the graph files the check writes: enough JSON to read them back.
enum JSONValue: Equatable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  /// Parses `text`, or returns nil when it is not one JSON value.
  static func parse(_ text: String) -> JSONValue? {
    var parser = Parser(bytes: Array(text.utf8))
    guard let value = parser.value() else { return nil }
    parser.skipSpace()
    return parser.index == parser.bytes.count ? value : nil
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func take(_ literal: String) -> Bool {
      let expected = Array(literal.utf8)
      guard bytes[index...].starts(with: expected) else { return false }
      index += expected.count
      return true
    }

    mutating func value() -> JSONValue? {
      skipSpace()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return object()
      case UInt8(ascii: "["): return array()
      case UInt8(ascii: "\""): return string().map(JSONValue.string)
      case UInt8(ascii: "t"): return take("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return take("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return take("null") ? .null : nil
      default: return number()
      }
    }

    mutating func object() -> JSONValue? {
      index += 1
      var members: [String: JSONValue] = [:]
      skipSpace()
      if take("}") { return .object(members) }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
          return nil
        }
        skipSpace()
        guard take(":"), let value = value() else { return nil }
        members[key] = value
        skipSpace()
        if take(",") { continue }
        return take("}") ? .object(members) : nil
      }
    }

    mutating func array() -> JSONValue? {
      index += 1
      var items: [JSONValue] = []
      skipSpace()
      if take("]") { return .array(items) }
      while true {
        guard let item = value() else { return nil }
        items.append(item)
        skipSpace()
        if take(",") { continue }
        return take("]") ? .array(items) : nil
      }
    }

    mutating func string() -> String? {
      index += 1
      var scalars = String.UnicodeScalarView()
      var run: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        run.removeAll()
      }
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          flush()
          return String(scalars)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { return nil }
          let escape = bytes[index]
          index += 1
          flush()
          switch escape {
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "b"): scalars.append("\u{8}")
          case UInt8(ascii: "f"): scalars.append("\u{C}")
          case UInt8(ascii: "u"):
            guard index + 4 <= bytes.count,
              let code = UInt32(
                String(decoding: bytes[index..<index + 4], as: UTF8.self),
                radix: 16
              )
            else { return nil }
            index += 4
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
          default: scalars.append(Unicode.Scalar(escape))
          }
        default: run.append(byte)
        }
      }
      return nil
    }

    mutating func number() -> JSONValue? {
      let start = index
      while index < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[index]) { index += 1 }
      return Double(String(decoding: bytes[start..<index], as: UTF8.self)).map(JSONValue.number)
    }
  }
}
