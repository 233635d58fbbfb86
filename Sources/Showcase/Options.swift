import Foundation

/// The showcase's command line.
struct Options {
  struct UsageError: Error {
    let message: String
  }

  static let usage = """
    usage: swift run showcase [--scenario NAME] [--list] [--base-url URL]

      --scenario NAME  run one scenario (see --list); all of them by default
      --list           list the scenarios and exit
      --base-url URL   use the API at URL instead of the embedded sample API
                       (for example one started with: python3 scripts/sample_api.py --port 8080)
      -h, --help       show this help
    """

  var baseURL: URL?
  var scenario: String?
  var showList = false
  var showHelp = false

  init(arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        showHelp = true
      case "--list":
        showList = true
      case "--scenario":
        guard let name = remaining.popFirst() else { throw UsageError(message: "--scenario needs a name") }
        scenario = name
      case "--base-url":
        guard let value = remaining.popFirst() else { throw UsageError(message: "--base-url needs a URL") }
        guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme),
          url.host != nil
        else {
          throw UsageError(message: "\"\(value)\" is not an http(s) URL")
        }
        baseURL = url
      default:
        throw UsageError(message: "unknown argument \"\(argument)\"")
      }
    }
  }
}
