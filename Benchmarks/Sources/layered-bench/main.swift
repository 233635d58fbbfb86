import Foundation

// `layered-bench <scenario>…`: runs the named scenarios (all of them without arguments) and
// prints their figures. Each scenario lives in a file of its own.

let scenarios: [any BenchmarkScenario] = [
  ClientScenario(), StackScenario(), LoopbackScenario(), RefreshStormScenario(), ViewModelScenario(),
  MemoryScenario(),
]

@MainActor
func runScenarios(_ arguments: [String]) async {
  if arguments.first == MemoryScenario.childFlag, arguments.count == 2 {
    await MemoryScenario.child(arguments[1])
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

// The main run loop serves the main actor instead of an async `main`, whose main thread waits in
// `sigsuspend`, which valgrind (scripts/bench-instructions) cannot run.
Task { @MainActor in
  await runScenarios(Array(CommandLine.arguments.dropFirst()))
  exit(0)
}
RunLoop.main.run()
