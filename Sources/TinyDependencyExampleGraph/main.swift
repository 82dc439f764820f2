import TinyDependencyExample
import TinyDependencyValidation

// The example app's graph check, run by the package's command plugin:
//
//     swift package dependency-graph --product TinyDependencyExampleGraph
//     swift package dependency-graph --product TinyDependencyExampleGraph \
//       --check Sources/TinyDependencyExample/dependency-graph.json

DependencyCheck.main(keys: ExampleApp.keys)
