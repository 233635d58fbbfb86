import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// TLS failures on a real socket. swift-corelibs-foundation reports each as an unknown error with
/// libcurl's words; the client gives it the code Foundation on Apple's systems gives, never the
/// "cannot parse the response" of a server that answered badly.
@Suite(
  "TLS failures from a real socket",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct SecureConnectionTests {
  @Test("https sent to a plain http port fails as a secure connection failure, and is not retried")
  func httpsToAPlainPort() async throws {
    let server = try TLSProbeServer.start(.plainHTTP)
    defer { server.stop() }
    let client = URLSessionHTTPClient(
      baseURL: server.baseURL, session: .loopbackTesting(), interceptors: [RetryPolicy(baseDelay: .zero)])

    let result = await client.outcome(Endpoint<[String]>(path: ["todos"]))

    #expect(result == .failure(.transport(code: URLError.Code.secureConnectionFailed.rawValue)))
    #expect(server.connections() == 1, "one connection, not retried")
  }

  @Test(
    "a self-signed certificate fails as an untrusted server certificate",
    .enabled(if: TLSProbeServer.canMakeCertificates, "needs the openssl command to make a certificate"))
  func selfSignedCertificate() async throws {
    let server = try TLSProbeServer.start(.selfSigned)
    defer { server.stop() }
    let client = URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting())

    let result = await client.outcome(Endpoint<[String]>(path: ["todos"]))

    #expect(result == .failure(.transport(code: URLError.Code.serverCertificateUntrusted.rawValue)))
    #expect(server.connections() == 1, "the client reached the server and stopped at its certificate")
  }
}

/// A Python server on a loopback port that the client reaches over `https`, and that counts the
/// connections it accepted.
final class TLSProbeServer: Sendable {
  enum Mode: String {
    /// Speaks HTTPS with a certificate `openssl` made for it, which no client trusts.
    case selfSigned
    /// Speaks plain HTTP: answers each connection at once with a 400, as a server on an http
    /// port answers a TLS greeting, and closes it.
    case plainHTTP
  }

  let baseURL: URL
  private let input: Locked<FileHandle?>
  private let output: FileHandle
  private let directory: URL

  static let python = executable(named: "python3")
  static let openssl = executable(named: "openssl")
  static var canMakeCertificates: Bool { openssl != nil }

  private static let script = """
    import os, socket, ssl, sys, threading
    # The test closes standard input to stop the server, and so does its process when it ends.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    listener = socket.create_server(("127.0.0.1", 0))
    print("port", listener.getsockname()[1], flush=True)
    context = None
    if sys.argv[1] == "selfSigned":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
    while True:
        connection, _ = listener.accept()
        print("connection", flush=True)
        try:
            if context:
                with context.wrap_socket(connection, server_side=True) as secure:
                    secure.recv(65536)
                    secure.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\n[]")
            else:
                connection.sendall(b"HTTP/1.1 400 Bad Request\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
        except (ssl.SSLError, OSError):
            pass
        finally:
            connection.close()
    """

  private init(baseURL: URL, input: FileHandle, output: FileHandle, directory: URL) {
    self.baseURL = baseURL
    self.input = Locked(input)
    self.output = output
    self.directory = directory
  }

  /// Starts a server in `mode`, with a certificate for `localhost` and 127.0.0.1 when it speaks
  /// HTTPS, and returns once it listens.
  static func start(_ mode: Mode) throws -> TLSProbeServer {
    let python = try #require(python, "python3 is not on PATH")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let key = directory.appendingPathComponent("key.pem")
    let certificate = directory.appendingPathComponent("cert.pem")
    if mode == .selfSigned {
      try makeCertificate(key: key, certificate: certificate)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", script, mode.rawValue, certificate.path, key.path]
    let (input, pipe) = (Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = pipe
    try process.run()
    // The child holds the only other ends: reading meets the end once it exits, and it exits once
    // its input ends.
    try input.fileHandleForReading.close()
    try pipe.fileHandleForWriting.close()
    let output = pipe.fileHandleForReading
    let line = try #require(readLine(output), "the probe server printed no port")
    let port = try #require(Int(line.dropFirst("port ".count)), "not a port: \(line)")
    let baseURL = try #require(URL(string: "https://127.0.0.1:\(port)"))
    return TLSProbeServer(
      baseURL: baseURL, input: input.fileHandleForWriting, output: output, directory: directory)
  }

  private static func makeCertificate(key: URL, certificate: URL) throws {
    let make = Process()
    make.executableURL = URL(fileURLWithPath: try #require(openssl, "openssl is not on PATH"))
    make.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.path, "-out", certificate.path,
    ]
    let pipe = Pipe()
    make.standardOutput = pipe
    make.standardError = pipe
    try make.run()
    try pipe.fileHandleForWriting.close()
    // The output ends when openssl exits.
    _ = try pipe.fileHandleForReading.readToEnd()
    try #require(FileManager.default.fileExists(atPath: certificate.path), "openssl made no certificate")
  }

  /// Stops the server and returns how many connections it accepted.
  func connections() -> Int {
    stop()
    var count = 0
    while Self.readLine(output) == "connection" { count += 1 }
    return count
  }

  /// Stops the server by ending its input; its output ends once it has exited. (`terminate()`
  /// left it running here; the end of its input stops it also when the test process dies.)
  func stop() {
    input.withLock { input in
      try? input?.close()
      input = nil
    }
    try? FileManager.default.removeItem(at: directory)
  }

  /// The path of the command `name` on `PATH`, if there is one.
  private static func executable(named name: String) -> String? {
    let directories = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":") ?? []
    return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  private static func readLine(_ handle: FileHandle) -> String? {
    var bytes = Data()
    while let chunk = try? handle.read(upToCount: 1), let byte = chunk.first {
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }
}
