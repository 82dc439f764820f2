public import TinyDependency
public import TinyDependencyGraph

extension DependencyCheck {
  /// What a run of the command-line check printed, and how it ended.
  public struct Outcome: Sendable, Hashable {
    /// What goes to standard output: the graph, or the difference `--check` found.
    public var output: String
    /// What goes to standard error: the findings, one a line, and usage errors.
    public var errors: String
    /// The exit status: 0 clean, 1 findings, 2 usage error, 3 the graph differs from `--check`'s file.
    public var exitCode: Int32
  }

  /// Checks `keys` with the process's arguments, prints the graph and exits with the status.
  ///
  /// ```swift
  /// // Sources/AppGraph/main.swift
  /// DependencyCheck.main(keys: [APIClientKey.self, DatabaseKey.self, CartKey.self])
  /// ```
  ///
  /// Arguments: `--format text|mermaid|dot|json`, `--context test|preview|default`,
  /// `--output FILE`, `--check FILE`, `--runtime-graph FILE` and `--help`
  /// (``usage`` describes them).
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - mainActorKeys: The main-actor keys to check, on the main actor.
  @MainActor
  public static func main(
    keys: [any DependencyKey.Type],
    mainActorKeys: [any MainActorDependencyKey.Type] = []
  ) -> Never {
    main(keys: keys, mainActorKeys: mainActorKeys, configure: { _ in })
  }

  /// Checks `keys`, with `configure` setting values (inputs, say) on each fresh container, with
  /// the process's arguments, prints the graph and exits with the status.
  ///
  /// - Parameters:
  ///   - keys: The keys to check.
  ///   - mainActorKeys: The main-actor keys to check, on the main actor.
  ///   - configure: Sets values on each fresh container before it resolves.
  @MainActor
  public static func main(
    keys: [any DependencyKey.Type],
    mainActorKeys: [any MainActorDependencyKey.Type],
    configure: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> Never {
    let outcome = run(
      Array(CommandLine.arguments.dropFirst()),
      keys: keys,
      mainActorKeys: mainActorKeys,
      configure: configure
    )
    Files.write(outcome.output, to: 1)
    Files.write(outcome.errors, to: 2)
    Files.exit(outcome.exitCode)
  }

  /// Checks every key in the binary, found as ``discoveredKeys()`` finds them, with the
  /// process's arguments; exits 2 where this platform can't discover keys.
  @MainActor
  public static func main() -> Never {
    guard let keys = discoveredKeys(), let mainActorKeys = discoveredMainActorKeys() else {
      Files.write(
        "error: this platform's binaries can't be searched for keys: "
          + "list them in DependencyCheck.main(keys:mainActorKeys:)\n",
        to: 2
      )
      Files.exit(2)
    }
    main(keys: keys, mainActorKeys: mainActorKeys)
  }

  /// How to call the check, as `--help` prints it.
  public static let usage = """
    USAGE: <check executable> [--format text|mermaid|dot|json] [--context test|preview|default]
                              [--output FILE | --check FILE] [--runtime-graph FILE]

    Traces the keys in fresh containers, prints their graph and the problems found.

    OPTIONS:
      --format FORMAT         text (default), mermaid, dot or json (schema version \
    \(GraphDocument.schemaVersion)).
      --context CONTEXT       the values to trace for the graph: test (default), preview or
                              default (live values are built). The checks run in the test
                              context in every case; preview also reports missing previewValues.
      --output FILE           write the graph to FILE instead of standard output.
      --check FILE            compare the JSON graph with FILE (written by --format json) and
                              print the edges added and removed; exit 3 when they differ.
      --runtime-graph FILE    a JSON graph recorded by a live run (written with
                              DependencyCheck.json(of: DependencyValues.current.graph)): list
                              the edges it has that the traced graph lacks.
      --help                  print this help.

    EXIT STATUS: 0 nothing found, 1 findings (one a line on standard error: kind | key | path |
    fix), 2 usage error, 3 the graph differs from --check's file.

    """

  /// Renders `graph` in the check's JSON schema, without findings: for a live process to write
  /// the graph of what it built, which `--runtime-graph` compares with the traced one.
  ///
  /// ```swift
  /// let json = DependencyCheck.json(of: DependencyValues.current.graph)
  /// ```
  ///
  /// - Parameter graph: The graph to render.
  /// - Returns: The JSON text, one node or edge a line.
  public static func json(of graph: DependencyGraph) -> String {
    GraphDocument(graph: graph, findings: [], ownValues: { _ in [] }, runtime: nil).json
  }

  /// Runs the command-line check with `arguments` (without the executable's name) and returns
  /// what it would print and its exit status, without exiting.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, as ``usage`` describes them.
  ///   - keys: The keys to check.
  ///   - mainActorKeys: The main-actor keys to check, on the main actor.
  ///   - configure: Sets values on each fresh container before it resolves.
  /// - Returns: The output, the errors and the exit status.
  @MainActor
  public static func run(
    _ arguments: [String],
    keys: [any DependencyKey.Type],
    mainActorKeys: [any MainActorDependencyKey.Type] = [],
    configure: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) -> Outcome {
    let options: Options
    switch Options.parse(arguments) {
    case .failure(let error):
      return Outcome(output: "", errors: "error: \(error.message)\n\n" + usage, exitCode: 2)
    case .success(let parsed): options = parsed
    }
    if options.help { return Outcome(output: usage, errors: "", exitCode: 0) }
    if keys.isEmpty && mainActorKeys.isEmpty {
      return Outcome(output: "", errors: "error: no keys to check\n", exitCode: 2)
    }
    var runtime: GraphDocument.Parsed?
    if let path = options.runtimeGraph {
      switch GraphDocument.read(path) {
      case .failure(let error): return Outcome(output: "", errors: error.message, exitCode: 2)
      case .success(let parsed): runtime = parsed
      }
    }

    let stored = mainActorKeys.map { $0.storageKey }
    let test = trace(keys, mainActorKeys: stored, context: .test, configure: configure)
    // Main-actor keys build their live default where a preview value is missing: only traced
    // in the preview context when that is the graph asked for.
    let preview = trace(
      keys,
      mainActorKeys: options.context == .preview ? stored : [],
      context: .preview,
      configure: configure
    )
    var findings = report(
      keys + stored,
      traced: test,
      preview: options.context == .preview ? preview : nil
    ).findings
    let graph: DependencyGraph
    switch options.context {
    case .test: graph = test.graph
    case .preview: graph = preview.graph
    case .default:
      graph = trace(keys, mainActorKeys: stored, context: .default, configure: configure).graph
      findings = Array(Set(findings + cycles(in: graph) + unsetInputs(in: graph))).sorted()
    }
    let document = GraphDocument(
      graph: graph,
      findings: findings,
      ownValues: { node in
        // A context has a value of its own where its trace reached the key, did not fall back
        // to the default, and did not find it an unset input.
        [("preview", preview), ("test", test)].compactMap { name, trace in
          trace.graph.nodes.contains(node) && !trace.fellBack.contains(node)
            && !trace.graph.missingInputs.contains(node) ? name : nil
        }
      },
      runtime: runtime
    )

    var outcome = Outcome(output: "", errors: "", exitCode: findings.isEmpty ? 0 : 1)
    if !findings.isEmpty {
      outcome.errors =
        "\(findings.count) \(findings.count == 1 ? "problem" : "problems") found:\n"
        + findings.map { $0.line + "\n" }.joined()
    }
    if let path = options.check {
      switch GraphDocument.read(path) {
      case .failure(let error): return Outcome(output: "", errors: error.message, exitCode: 2)
      case .success(let committed):
        let difference = document.difference(from: committed, fileName: path)
        outcome.output = difference.text
        if difference.differs && outcome.exitCode == 0 { outcome.exitCode = 3 }
      }
      return outcome
    }
    let rendered = document.render(options.format)
    if let path = options.output {
      guard Files.write(rendered, toFile: path) else {
        return Outcome(output: "", errors: "error: could not write \(path)\n", exitCode: 2)
      }
      outcome.output = "wrote \(path): \(graph.nodes.count) keys, \(graph.edges.count) edges\n"
    } else {
      outcome.output = rendered
    }
    return outcome
  }
}

/// The command line of the check, parsed.
struct Options {
  enum Format: String { case text, mermaid, dot, json }

  struct UsageError: Error { let message: String }

  var format = Format.text
  var context = DependencyContext.test
  var output: String?
  var check: String?
  var runtimeGraph: String?
  var help = false

  static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
    var options = Options()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--help" || argument == "-h" {
        options.help = true
        continue
      }
      let flags = ["--format", "--context", "--output", "--check", "--runtime-graph"]
      guard flags.contains(argument) else {
        return .failure(UsageError(message: "unknown argument '\(argument)'"))
      }
      guard let value = rest.popFirst(), !value.hasPrefix("--") else {
        return .failure(UsageError(message: "\(argument) needs a value"))
      }
      switch argument {
      case "--format":
        guard let format = Format(rawValue: value) else {
          return .failure(
            UsageError(message: "unknown format '\(value)': use text, mermaid, dot or json")
          )
        }
        options.format = format
      case "--context":
        guard let context = DependencyContext(rawValue: value) else {
          return .failure(
            UsageError(message: "unknown context '\(value)': use test, preview or default")
          )
        }
        options.context = context
      case "--output": options.output = value
      case "--check": options.check = value
      default: options.runtimeGraph = value
      }
    }
    if options.output != nil && options.check != nil {
      return .failure(UsageError(message: "--output and --check can't be used together"))
    }
    return .success(options)
  }
}
