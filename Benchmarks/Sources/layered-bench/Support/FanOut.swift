/// Runs `count` requests with `inFlight` of them at a time: each of `inFlight` workers sends its
/// share in turn, the first `count % inFlight` of them one more.
func fanOut(_ count: Int, inFlight: Int, _ request: @escaping @Sendable () async -> Void) async {
  await withTaskGroup(of: Void.self) { group in
    for worker in 0..<inFlight {
      let share = count / inFlight + (worker < count % inFlight ? 1 : 0)
      group.addTask {
        for _ in 0..<share { await request() }
      }
    }
  }
}
