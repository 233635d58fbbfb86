import DataLayer
import DomainLayer
import Foundation
import NetworkLayer
import PresentationLayer

/// Memory that requests leave behind, and view models that outlive their screen.
///
/// 1. RSS growth over 100,000 requests after a 5,000-request warm-up, raw URLSession +
///    JSONDecoder against the Layered client, each in a fresh child process so that neither
///    inherits the other's heap: once with one request in flight, once with 64 (the figure the
///    client promises to keep within 5 MiB of raw URLSession's own growth: a finished call must
///    retain nothing until its deadline passes).
/// 2. 10,000 view models released while their request hangs: how many are still alive a moment
///    later (weak references), and how many of their requests are still open at the server.
struct MemoryScenario: BenchmarkScenario {
  let name = "memory"
  static let childFlag = "--memory-child"
  static let warmUp = 5_000
  static let measured = 100_000
  /// The requests in flight at once of the second comparison.
  static let wide = 64

  @MainActor
  func run() async {
    print("memory: RSS growth over \(Self.measured) requests after \(Self.warmUp) warm-up, one process each")
    for width in [1, Self.wide] {
      let raw = Self.runChild("raw", width: width)
      let layered = Self.runChild("layered", width: width)
      print("  \(width) in flight:")
      print("    raw URLSession + JSONDecoder: +\(mebibytes(raw)) MiB")
      print(
        "    Layered URLSessionHTTPClient: +\(mebibytes(layered)) MiB  (Layered − raw: \(mebibytes(layered - raw)) MiB)"
      )
    }
    await releasedViewModels()
  }

  /// Runs this executable again as a child measuring one variant with `width` requests in
  /// flight; returns its RSS growth.
  private static func runChild(_ variant: String, width: Int) -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [childFlag, variant, String(width)]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { fatalError("could not start the memory child: \(error)") }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard
      let bytes = output.split(separator: " ").last.flatMap({
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      })
    else { fatalError("the memory child printed \(output)") }
    return bytes
  }

  /// The child's work, `width` requests in flight at once: prints `growth <bytes>`.
  static func child(_ variant: String, width: Int) async {
    let session = FixtureURLProtocol.makeSession()
    let raw = RawFetch<ArticleDTO>(
      session: session, url: FixtureURLProtocol.baseURL.appending(path: "articles/today"))
    let client = URLSessionHTTPClient(baseURL: FixtureURLProtocol.baseURL, session: session)
    let endpoint = Endpoint<ArticleDTO>(path: ["articles", "today"])
    let request: @Sendable () async -> Void
    if variant == "raw" {
      request = { _ = await raw() }
    } else {
      request = {
        do { _ = try await client.send(endpoint) } catch { fatalError("Layered request failed: \(error)") }
      }
    }
    await fanOut(warmUp, inFlight: width, request)
    let before = ResourceUsage.residentBytes()
    await fanOut(measured, inFlight: width, request)
    let after = ResourceUsage.residentBytes()
    print("growth \(after - before)")
  }

  /// 10,000 view models start a request that never answers and are released at once.
  @MainActor
  private func releasedViewModels() async {
    let count = 10_000
    let client = URLSessionHTTPClient(
      baseURL: FixtureURLProtocol.hangingURL, session: FixtureURLProtocol.makeSession())
    let loadArticle = LoadTodaysArticle(repository: RemoteArticleRepository(client: client))
    var viewModels: [ArticleViewModel] = []
    viewModels.reserveCapacity(count)
    for _ in 0..<count {
      let viewModel = ArticleViewModel(loadArticle: loadArticle)
      viewModel.send(.appeared)
      viewModels.append(viewModel)
    }
    let clock = ContinuousClock()
    // Released only once every request is open at the server: mid-request, not before it.
    let opening = clock.now
    while FixtureURLProtocol.openHangs.load(ordering: .relaxed) < count, clock.now - opening < .seconds(30) {
      try? await Task.sleep(for: .milliseconds(20))
    }
    let openBefore = FixtureURLProtocol.openHangs.load(ordering: .relaxed)
    let references = viewModels.map(WeakViewModel.init)
    viewModels.removeAll()
    let start = clock.now
    // Let cancellation reach the transport; stops as soon as everything is gone.
    while clock.now - start < .seconds(5) {
      if references.allSatisfy({ $0.value == nil })
        && FixtureURLProtocol.openHangs.load(ordering: .relaxed) == 0
      {
        break
      }
      try? await Task.sleep(for: .milliseconds(20))
    }
    let alive = references.filter { $0.value != nil }.count
    let open = FixtureURLProtocol.openHangs.load(ordering: .relaxed)
    print(
      "  \(count) view models released with \(openBefore) requests open at the server: "
        + "\(alive) still alive, \(open) requests still open \(micro((clock.now - start).seconds) ) µs later"
    )
  }
}

@MainActor
private struct WeakViewModel {
  weak var value: ArticleViewModel?

  init(_ value: ArticleViewModel) { self.value = value }
}

private func mebibytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, 1) }
