import Foundation

/// `swift run showcase`: a narrated walk through the seed scenarios, on the embedded sample API.
///
/// For each step it prints the action, the layers the work passes through, the HTTP exchanges
/// (credentials redacted), and the resulting states and events, then checks that the app
/// behaved as described. It exits non-zero if any check failed. `--scenario NAME` runs one,
/// `--list` lists them, `--base-url URL` runs against a server such as `scripts/sample_api.py`
/// (and exits with 69 at once if no sample API answers there).
@main
struct Showcase {
  static func main() async {
    let options: Options
    do {
      options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(Data("showcase: \(error.message)\n\n\(Options.usage)\n".utf8))
      exit(64)
    }
    if options.showHelp {
      print(Options.usage)
      return
    }
    if options.showList {
      for scenario in Scenario.all {
        print("\(scenario.name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(scenario.title)")
      }
      return
    }

    var scenarios = Scenario.all
    if let name = options.scenario {
      scenarios = scenarios.filter { $0.name == name }
      guard !scenarios.isEmpty else {
        FileHandle.standardError.write(Data("showcase: no scenario \"\(name)\"; see --list\n".utf8))
        exit(64)
      }
    }

    // Checked once, up front: against no server every scenario would fail the same way.
    if let baseURL = options.baseURL {
      do {
        try await BackendControl.checkReachable(at: baseURL)
      } catch {
        FileHandle.standardError.write(
          Data("showcase: \(error)\n(start one with: python3 scripts/sample_api.py --port 8080)\n".utf8))
        exit(69)
      }
    }

    print("Layered showcase on \(options.baseURL?.absoluteString ?? "the embedded sample API (in process)")")
    var failed: [String] = []
    var checks = 0
    for scenario in scenarios {
      print("\n━━ \(scenario.name): \(scenario.title)")
      let stage = Stage(baseURL: options.baseURL)
      do {
        try await scenario.run(stage)
      } catch {
        stage.expect(false, "the scenario could not set its scene: \(error)")
      }
      checks += stage.checkCount
      if !stage.failedChecks.isEmpty { failed.append(scenario.name) }
    }

    let passed = scenarios.count - failed.count
    let verdict = failed.isEmpty ? "." : "; not as described: \(failed.joined(separator: ", "))."
    print("\n\(passed) of \(scenarios.count) scenarios behaved as described (\(checks) checks)\(verdict)")
    exit(failed.isEmpty ? 0 : 1)
  }
}
