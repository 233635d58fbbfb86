import AppComposition
import DomainLayer
import Foundation
import PresentationLayer
import SampleBackend

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `swift run showcase`: loads the todo list through every layer and prints what each step saw.
///
/// By default it runs on the embedded sample API (in process, no network needed);
/// `--base-url URL` points it at a real server such as `scripts/sample_api.py`.
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

    let configuration: AppConfiguration
    let apiDescription: String
    if let baseURL = options.baseURL {
      configuration = AppConfiguration(baseURL: baseURL, session: URLSession(configuration: .ephemeral))
      apiDescription = baseURL.absoluteString
    } else {
      let mount = SampleAPI().mount()
      configuration = AppConfiguration(baseURL: mount.baseURL, session: mount.makeSession())
      apiDescription = "embedded sample API (in process)"
    }

    print("Layered showcase: the todo list, through every layer")
    print("API: \(apiDescription)\n")
    let container = AppContainer(configuration: configuration)
    let succeeded = await TodoListWalkthrough(viewModel: container.makeTodoListViewModel()).run()
    exit(succeeded ? 0 : 1)
  }
}
