import Foundation

/// Reads fields from a JSON request body with the same checks and messages as the Python twin,
/// so that a bad request gets the same 400 from both servers.
struct JSONObjectReader {
  /// A request the API refuses, with the status and message to send.
  struct Rejection: Error {
    let status: Int
    let message: String
  }

  private let object: [String: JSONValue]

  /// Parses `body`, which must be one JSON object.
  init(_ body: Data) throws(Rejection) {
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else {
      throw Rejection(status: 400, message: "malformed JSON body")
    }
    guard case .object(let object) = value else {
      throw Rejection(status: 400, message: "JSON body must be an object")
    }
    self.object = object
  }

  func string(_ key: String, required: Bool = false) throws(Rejection) -> String? {
    try field(key, required: required, expected: "a string") { value in
      if case .string(let text) = value { text } else { nil }
    }
  }

  func integer(_ key: String) throws(Rejection) -> Int? {
    try field(key, required: false, expected: "an integer") { value in
      if case .integer(let number) = value { number } else { nil }
    }
  }

  func boolean(_ key: String) throws(Rejection) -> Bool? {
    try field(key, required: false, expected: "a boolean") { value in
      if case .boolean(let flag) = value { flag } else { nil }
    }
  }

  func nonNegativeNumber(_ key: String) throws(Rejection) -> Double? {
    try field(key, required: false, expected: "a non-negative number") { value in
      switch value {
      case .integer(let number) where number >= 0: Double(number)
      case .number(let number) where number >= 0 && number.isFinite: number
      default: nil
      }
    }
  }

  /// A todo title: present when `required`, a string, and not blank. Returned trimmed of the
  /// scalars with Unicode's White_Space property at either end, the set the Python twin strips.
  func title(required: Bool) throws(Rejection) -> String? {
    guard let raw = try string("title", required: required) else { return nil }
    let scalars = raw.unicodeScalars
    let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
    let end = scalars.lastIndex { !$0.properties.isWhitespace }.map(scalars.index(after:)) ?? start
    let title = String(scalars[start..<end])
    guard !title.isEmpty else { throw Rejection(status: 400, message: "'title' must not be empty") }
    return title
  }

  /// An explicit `null` counts as absent, as it does for an optional Codable property.
  private func field<Value>(
    _ key: String,
    required: Bool,
    expected: String,
    _ extract: (JSONValue) -> Value?
  ) throws(Rejection) -> Value? {
    guard let value = object[key], value != .null else {
      if required { throw Rejection(status: 400, message: "missing field '\(key)'") }
      return nil
    }
    guard let extracted = extract(value) else {
      throw Rejection(status: 400, message: "'\(key)' must be \(expected)")
    }
    return extracted
  }
}

/// Any JSON value, keeping integers apart from other numbers and booleans apart from both.
enum JSONValue: Decodable, Equatable {
  case null
  case boolean(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .boolean(flag)
    } else if let number = try? container.decode(Int.self) {
      self = .integer(number)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}
