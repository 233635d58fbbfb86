/// One narrated walk through the layers, with the checks that say it behaved as described.
struct Scenario: Sendable {
  /// The name for `--scenario`.
  let name: String
  /// What it shows, in one line.
  let title: String
  /// Runs the walk on a fresh stage, on the main actor like the screens it drives; failed checks
  /// are recorded on the stage.
  let run: @MainActor @Sendable (Stage) async throws -> Void

  /// Every scenario, in the order of the brief's seed scenarios.
  static let all: [Scenario] = [
    .loginSurvivesFailures, .articlePlaceholder, .todoListRecovers, .threeCallStyles, .oneRefresh,
    .closedScreenCancels,
  ]
}
