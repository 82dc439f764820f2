import Foundation
import TinyDependency
import TinyDependencyCollections
import TinyDependencyExample
import TinyDependencyValidation

// The example app's entry point:
//
//     swift run TinyDependencyExample                                  # the demo and its graph
//     swift run TinyDependencyExample --mermaid                        # the graph in Mermaid
//     swift run TinyDependencyExample --write-runtime-graph FILE       # also the graph as JSON,
//         for `swift package dependency-graph --product TinyDependencyExampleGraph --runtime-graph FILE`

let arguments = Array(CommandLine.arguments.dropFirst())
// The app's modules, registered once at its entry point.
prepareDependencies { $0.register(AppModule.self) }
let graph = await ExampleApp.run(arguments: arguments)
if let flag = arguments.firstIndex(of: "--write-runtime-graph"), flag + 1 < arguments.count {
  let path = arguments[flag + 1]
  try DependencyCheck.json(of: graph).write(toFile: path, atomically: true, encoding: .utf8)
  print("wrote the graph of this run to \(path)")
}
