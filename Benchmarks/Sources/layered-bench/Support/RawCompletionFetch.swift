import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What Layered's transport does underneath, without the client around it: a completion-handler
/// data task with a per-task delegate, bridged with a checked continuation, then one decode.
/// Measured next to `data(for:)` to show how much of the client's cost is this bridge.
struct RawCompletionFetch<Value: Decodable & Sendable>: Sendable {
  let session: URLSession
  let url: URL
  let decoder = JSONDecoder()

  func callAsFunction() async -> Value {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let data: Data = await withCheckedContinuation { continuation in
      let task = session.dataTask(with: request) { data, response, error in
        guard error == nil, (response as? HTTPURLResponse)?.statusCode == 200, let data else {
          fatalError("raw request failed: \(String(describing: error))")
        }
        continuation.resume(returning: data)
      }
      task.delegate = TaskDelegate()
      task.resume()
    }
    do { return try decoder.decode(Value.self, from: data) } catch { fatalError("decoding failed: \(error)") }
  }
}

private final class TaskDelegate: NSObject, URLSessionTaskDelegate, Sendable {}
