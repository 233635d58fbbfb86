/// One benchmark: a name for the command line, and a run that prints its figures.
protocol BenchmarkScenario: Sendable {
  var name: String { get }
  @MainActor func run() async
}
