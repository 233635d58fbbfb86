import Foundation

/// Decodes a JSON body and describes a failure by the coding path where it happened.
struct JSONResponseDecoder<Value: Decodable & Sendable>: Sendable {
  let decoder: JSONDecoder

  func decode(_ data: Data) throws(NetworkError) -> Value {
    guard !data.isEmpty else { throw .noData }
    do {
      return try decoder.decode(Value.self, from: data)
    } catch let error as DecodingError {
      throw Self.describe(error)
    } catch {
      throw .decodingFailed(path: "", reason: "\(error)")
    }
  }

  private static func describe(_ error: DecodingError) -> NetworkError {
    switch error {
    case .typeMismatch(let type, let context):
      .decodingFailed(path: context.codingPath.dottedPath, reason: "expected \(type)")
    case .valueNotFound(let type, let context):
      .decodingFailed(path: context.codingPath.dottedPath, reason: "missing value of \(type)")
    case .keyNotFound(let key, let context):
      .decodingFailed(
        path: (context.codingPath + [key]).dottedPath,
        reason: "missing key"
      )
    case .dataCorrupted(let context):
      // The decoder's own words: "not valid JSON" for a syntax error, but also "invalid date"
      // or "cannot initialize Status from invalid String value" for JSON that is valid.
      .decodingFailed(
        path: context.codingPath.dottedPath,
        reason: context.debugDescription.isEmpty ? "the data is corrupted" : context.debugDescription
      )
    @unknown default:
      .decodingFailed(path: "", reason: "\(error)")
    }
  }
}

extension [any CodingKey] {
  /// `[0].title`-style path, the way a developer would write it when reading the JSON.
  fileprivate var dottedPath: String {
    var path = ""
    for key in self {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return path
  }
}
