import Features
import TinyDependencyValidation

// Every key in the binary, found by discovery.
DependencyCheck.main()
