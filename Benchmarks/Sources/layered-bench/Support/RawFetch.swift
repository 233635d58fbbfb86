import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The baseline every network scenario is measured against: what an app writes without a client
/// library. One `data(for:)`, a status check, one `JSONDecoder` decode.
struct RawFetch<Value: Decodable & Sendable>: Sendable {
  let session: URLSession
  let url: URL
  let decoder = JSONDecoder()

  func callAsFunction() async -> Value {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    do {
      let (data, response) = try await session.data(for: request)
      guard (response as? HTTPURLResponse)?.statusCode == 200 else {
        fatalError("raw request failed: \(response)")
      }
      return try decoder.decode(Value.self, from: data)
    } catch {
      fatalError("raw request failed: \(error)")
    }
  }
}
