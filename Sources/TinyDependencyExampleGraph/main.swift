import TinyDependencyCollections
import TinyDependencyExample
import TinyDependencyValidation

// The example app's graph check, run by the package's command plugin:
//
//     swift package dependency-graph --product TinyDependencyExampleGraph
//     swift package dependency-graph --product TinyDependencyExampleGraph \
//       --check Sources/TinyDependencyExample/dependency-graph.json

// Each traced container registers the app's modules, as the entry point does.
DependencyCheck.main(keys: ExampleApp.keys, mainActorKeys: []) { $0.register(AppModule.self) }
