import Foundation

// `layered-bench <scenario>…`: runs the named scenarios (all of them without arguments) and
// prints their figures. Each scenario lives in a file of its own.

let scenarios: [any BenchmarkScenario] = [
  ClientScenario(), StackScenario(), LoopbackScenario(), RefreshStormScenario(), ViewModelScenario(),
  MemoryScenario(),
]

@MainActor
func runScenarios(_ arguments: [String]) async {
  if arguments.first == MemoryScenario.childFlag, arguments.count == 3, let width = Int(arguments[2]) {
    await MemoryScenario.child(arguments[1], width: width)
  } else if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: layered-bench [scenario…]\nscenarios: \(scenarios.map(\.name).joined(separator: ", "))")
  } else {
    let unknown = arguments.filter { name in !scenarios.contains { $0.name == name } }
    if !unknown.isEmpty {
      print("layered-bench: no scenario \(unknown.joined(separator: ", ")); try --help")
    } else {
      for scenario in scenarios where arguments.isEmpty || arguments.contains(scenario.name) {
        await scenario.run()
      }
    }
  }
}

// The main actor runs on the main dispatch queue, as in an async `main`. Valgrind
// (scripts/bench-instructions) cannot run a main thread that `dispatchMain` parks in
// `sigsuspend`, so `LAYERED_BENCH_RUNLOOP=1` serves the main actor from the main run loop instead,
// which costs each hop to the main actor more: fine for counting instructions, not for timing.
Task { @MainActor in
  await runScenarios(Array(CommandLine.arguments.dropFirst()))
  exit(0)
}
if ProcessInfo.processInfo.environment["LAYERED_BENCH_RUNLOOP"] == "1" {
  RunLoop.main.run()
} else {
  dispatchMain()
}
