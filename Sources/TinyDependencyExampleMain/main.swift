import Foundation
import TinyDependencyExample
import TinyDependencyValidation

// The example app's entry point:
//
//     swift run TinyDependencyExample                                  # the demo and its graph
//     swift run TinyDependencyExample --mermaid                        # the graph in Mermaid
//     swift run TinyDependencyExample --write-runtime-graph FILE       # also the graph as JSON,
//         for `swift package dependency-graph --product TinyDependencyExampleGraph --runtime-graph FILE`

let arguments = Array(CommandLine.arguments.dropFirst())
let graph = await ExampleApp.run(arguments: arguments)
if let flag = arguments.firstIndex(of: "--write-runtime-graph"), flag + 1 < arguments.count {
  let path = arguments[flag + 1]
  try DependencyCheck.json(of: graph).write(toFile: path, atomically: true, encoding: .utf8)
  print("wrote the graph of this run to \(path)")
}
