import Foundation

// The floor that `skillbook-bench cold_start` divides by: what a Swift program that links
// Foundation and prints one line costs to start, built like the shipped binary.
FileHandle.standardOutput.write(Data("skillbook-floor \(ProcessInfo.processInfo.processIdentifier > 0)\n".utf8))
